import { Router } from 'express';
import type { Container } from '../../container';
import { createAccountCenter } from '../../controllers/admin/account-center';
import { createProfilePageController } from '../../controllers/admin/profile.controller';
import { requireRecentSignIn } from '../../middleware/step-up';
import { accountPage } from '../../http/account-sections';
import { createPasskeysCard } from '../../controllers/admin/passkeys-card';
import { createApiKeysCard } from '../../controllers/admin/api-keys-card';
import { createConnectedAppsCard } from '../../controllers/admin/connected-apps-card';

/**
 * The account center (CONTRACT 6): every signed-in user's own pages (a viewer's only admin pages), one per
 * section, each card's form under its section and answering there. A step-up action sends an old sign-in to
 * sign in again and back to the section it started from.
 */
export function profilePageRoutes(container: Container): Router {
  const { adminPages, limits } = container;
  const { page } = adminPages;
  const center = createAccountCenter(container);
  const profile = createProfilePageController(container, center);
  const apiKeys = createApiKeysCard(container);
  const router = Router();
  const signedIn = page(null);
  const recent = {
    security: requireRecentSignIn({ returnTo: accountPage('security') }),
    sessions: requireRecentSignIn({ returnTo: accountPage('sessions') }),
    apps: requireRecentSignIn({ returnTo: accountPage('apps') }),
  };

  router.get('/profile', ...signedIn, center.show('profile'));
  router.post('/profile', ...signedIn, profile.update);
  router.get('/profile/security', ...signedIn, center.show('security'));
  // A current-password check is a password guess: it counts against the sign-in limit.
  // Changing the password is a step-up action too (CONTRACT 9): the current password alone is not enough for an old sign-in.
  router.post('/profile/password', ...signedIn, recent.security, limits.login, profile.changePassword);
  router.post('/profile/passkeys/:id/remove', ...signedIn, recent.security, createPasskeysCard(container).remove);
  router.get('/profile/sessions', ...signedIn, center.show('sessions'));
  // Ending another session is a step-up action (CONTRACT 9): an old sign-in is sent to sign in again first.
  router.post('/profile/sessions/revoke-others', ...signedIn, recent.sessions, profile.revokeOtherSessions);
  router.post('/profile/sessions/:sid/revoke', ...signedIn, recent.sessions, profile.revokeSession);
  router.get('/profile/apps', ...signedIn, center.show('apps'));
  // Making an API key is a step-up action (CONTRACT 9); revoking one only takes power away.
  router.post('/profile/api-keys', ...signedIn, recent.apps, apiKeys.create);
  router.post('/profile/api-keys/:id/revoke', ...signedIn, apiKeys.revoke);
  // Removing a connected application only takes power away, like revoking a key: no step-up.
  router.post('/profile/connected-apps/:clientId/remove', ...signedIn, createConnectedAppsCard(container).remove);
  router.get('/profile/data', ...signedIn, center.show('data'));
  return router;
}
