import { Router } from 'express';
import type { Container } from '../../container';
import { createProfilePageController } from '../../controllers/admin/profile.controller';
import { requireRecentSignIn } from '../../middleware/step-up';
import { createPasskeysCard } from '../../controllers/admin/passkeys-card';
import { createApiKeysCard } from '../../controllers/admin/api-keys-card';

/** `/admin/profile`: every signed-in user's own page (a viewer's only admin page). */
export function profilePageRoutes(container: Container): Router {
  const { adminPages, limits } = container;
  const { page } = adminPages;
  const profile = createProfilePageController(container);
  const router = Router();
  const signedIn = page(null);
  const recent = requireRecentSignIn({ returnTo: '/admin/profile' });

  router.get('/profile', ...signedIn, profile.show);
  router.post('/profile', ...signedIn, profile.update);
  // A current-password check is a password guess: it counts against the sign-in limit.
  // Changing the password is a step-up action too (CONTRACT 9): the current password alone is not enough for an old sign-in.
  router.post('/profile/password', ...signedIn, recent, limits.login, profile.changePassword);
  // Ending another session is a step-up action (CONTRACT 9): an old sign-in is sent to sign in again first.
  router.post('/profile/sessions/revoke-others', ...signedIn, recent, profile.revokeOtherSessions);
  router.post('/profile/sessions/:sid/revoke', ...signedIn, recent, profile.revokeSession);
  router.post('/profile/passkeys/:id/remove', ...signedIn, recent, createPasskeysCard(container).remove);
  // Making an API key is a step-up action (CONTRACT 9); revoking one only takes power away.
  const apiKeys = createApiKeysCard(container);
  router.post('/profile/api-keys', ...signedIn, recent, apiKeys.create);
  router.post('/profile/api-keys/:id/revoke', ...signedIn, apiKeys.revoke);
  return router;
}
