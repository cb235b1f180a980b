import type { Container } from '../container';
import { createApiRouter, validated } from '../http/api-router';
import { createSessionsController } from '../controllers/sessions.controller';
import { requireRecentSignIn } from '../middleware/step-up';
import { SESSIONS_ENDPOINTS as doc } from '../schemas/sessions.schemas';
import { accountPage } from '../http/account-sections';

/** Where a page asking to end a session comes back to after signing in again. */
const PROFILE_PAGE = accountPage('sessions');

/** CONTRACT 8: the signed-in user's sessions. Mounted at /auth/sessions. Ending another session is a step-up action (CONTRACT 9). */
export function sessionsRoutes(container: Container) {
  const { guards } = container;
  const sessions = createSessionsController(container);
  const api = createApiRouter(container.docs, '/auth/sessions');
  const recent = requireRecentSignIn({ returnTo: PROFILE_PAGE });

  api.get('/', doc.mine, guards.requireAuth, sessions.mine);
  // Before /:id, so the literal path is not taken for a session id.
  api.post('/revoke-others', doc.revokeOthers, guards.requireAuth, recent, sessions.revokeOthers);
  api.delete('/:id', doc.revokeMine, guards.requireAuth, recent, validated, sessions.revokeMine);
  return api.router;
}

/** CONTRACT 8: an admin's view of a user's sessions, behind `manage:users`. Mounted at /api. */
export function userSessionsRoutes(container: Container) {
  const sessions = createSessionsController(container);
  const api = createApiRouter(container.docs, '/api');
  const manageUsers = [container.guards.requirePermission('manage:users')];

  api.get('/users/:id/sessions', doc.ofUser, ...manageUsers, validated, sessions.ofUser);
  api.delete('/users/:id/sessions', doc.revokeAllOfUser, ...manageUsers, validated, sessions.revokeAllOfUser);
  api.delete('/users/:id/sessions/:sid', doc.revokeOfUser, ...manageUsers, validated, sessions.revokeOfUser);
  return api.router;
}
