import type { Container } from '../container';
import { createApiRouter, validated } from '../http/api-router';
import { createApiKeysController } from '../controllers/api-keys.controller';
import { requireRecentSignIn } from '../middleware/step-up';
import { API_KEY_ENDPOINTS as doc } from '../schemas/api-keys.schemas';
import { accountPage } from '../http/account-sections';

/** Where a page asking to make a key comes back to after signing in again. */
const PROFILE_PAGE = accountPage('apps');

/** CONTRACT 11: the signed-in user's API keys. Mounted at /auth/api-keys. Making one is a step-up action (CONTRACT 9). */
export function apiKeysRoutes(container: Container) {
  const { guards } = container;
  const keys = createApiKeysController(container);
  const api = createApiRouter(container.docs, '/auth/api-keys');

  api.get('/', doc.mine, guards.requireAuth, keys.mine);
  api.post('/', doc.create, guards.requireAuth, requireRecentSignIn({ returnTo: PROFILE_PAGE }), validated, keys.create);
  api.delete('/:id', doc.revokeMine, guards.requireAuth, validated, keys.revokeMine);
  return api.router;
}

/** CONTRACT 11: an admin's view of a user's API keys, behind `manage:users`. Mounted at /api. */
export function userApiKeysRoutes(container: Container) {
  const keys = createApiKeysController(container);
  const api = createApiRouter(container.docs, '/api');
  const manageUsers = [container.guards.requirePermission('manage:users')];

  api.get('/users/:id/api-keys', doc.ofUser, ...manageUsers, validated, keys.ofUser);
  api.delete('/users/:id/api-keys/:keyId', doc.revokeOfUser, ...manageUsers, validated, keys.revokeOfUser);
  return api.router;
}
