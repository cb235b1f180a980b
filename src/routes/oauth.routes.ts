import type { Container } from '../container';
import { createApiRouter, validated } from '../http/api-router';
import { createOAuthController } from '../controllers/oauth.controller';
import { noStoreAll } from '../http/no-store';
import { STRATEGY } from '../sign-in/passport';
import { LINK_LANDING } from '../sign-in/oauth.strategy';
import { requireRecentSignIn } from '../middleware/step-up';
import { OAUTH_ENDPOINTS as doc } from '../schemas/oauth.schemas';


/**
 * SPEC 4.3 and CONTRACT 4 (OAuth): sign-in and account linking with GitHub and Google. Mounted at
 * /auth/oauth. The callback is a sign-in line: limit → authenticate('oauth') → issueSession, with the
 * cookies SameSite=Lax on that one response (they must survive the provider's cross-site redirect).
 */
export function oauthRoutes(container: Container) {
  const { guards, limits, authenticate, issueSession } = container;
  const oauth = createOAuthController(container);
  const api = createApiRouter(container.docs, '/auth/oauth');
  // Every answer here carries state, a credential or personal data.
  api.router.use(noStoreAll);

  // Before /:provider, so the literal path is not taken for a provider name.
  api.get('/accounts', doc.accounts, guards.requireAuth, oauth.accounts);
  // Step-up: a stolen token alone must not attach the thief's provider account (finding 2 of the review).
  api.post('/link', doc.link, guards.requireAuth, requireRecentSignIn({ returnTo: LINK_LANDING }), validated, oauth.link);
  api.post('/unlink', doc.unlink, guards.requireAuth, validated, oauth.unlink);
  api.get('/:provider', doc.start, limits.oauth, validated, oauth.start);
  // optionalAuth: a linking callback refuses when a credential arriving with it names another user. A linking
  // callback ends in the strategy (a redirect, no session): only a sign-in callback reaches issueSession.
  api.get('/:provider/callback', doc.callback, limits.oauth, guards.optionalAuth, validated, authenticate(STRATEGY.oauth), issueSession('oauth.login', { sameSite: 'lax', redirect: true }));

  api.router.use(oauth.profileFormErrors);
  return api.router;
}
