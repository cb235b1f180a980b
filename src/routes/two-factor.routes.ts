import type { Container } from '../container';
import { createApiRouter, validated } from '../http/api-router';
import { noStoreAll } from '../http/no-store';
import { STRATEGY } from '../sign-in/passport';
import { requireRecentSignIn } from '../middleware/step-up';
import { ENROLMENT_PAGE } from '../middleware/two-factor-gate';
import { createTwoFactorController } from '../controllers/two-factor.controller';
import { TWO_FACTOR_ENDPOINTS as doc } from '../schemas/two-factor.schemas';

/**
 * CONTRACT 9, mounted at /auth: TOTP enrolment, the second step of sign-in (a sign-in line:
 * limit → validate → authenticate('second-factor') → issueSession), and step-up. Enrolment (setup and
 * confirm), new recovery codes and turning it off are step-up actions; a page sent to step up comes back to
 * the enrolment page.
 */
export function twoFactorRoutes(container: Container) {
  const { guards, limits, authenticate, issueSession } = container;
  const twoFactor = createTwoFactorController(container);
  const api = createApiRouter(container.docs, '/auth');
  const recent = requireRecentSignIn({ returnTo: ENROLMENT_PAGE });
  // Secrets, codes, challenges and tokens: nothing here is ever stored by a cache.
  api.router.use(['/2fa', '/step-up'], noStoreAll);

  // HTML pages: not JSON routes, so not in the OpenAPI document.
  api.router.get('/2fa', twoFactor.challengePage);
  api.router.get('/step-up', guards.requireAuth, twoFactor.stepUpPage);

  api.post('/2fa/totp/setup', doc.setup, guards.requireAuth, recent, twoFactor.setup);
  api.post('/2fa/totp/confirm', doc.confirm, guards.requireAuth, recent, validated, twoFactor.confirm);
  api.post('/2fa/recovery-codes', doc.recoveryCodes, guards.requireAuth, recent, twoFactor.regenerate);
  api.post('/2fa/disable', doc.disable, guards.requireAuth, recent, twoFactor.disable);
  // A code guess is a sign-in attempt: a per-client limit of its own, the account throttle per account.
  // sessions.ready: a magic-link sign-in's second step makes its server session (the extension it names), and
  // the challenge is never spent while no session could be made.
  api.post('/2fa/verify', doc.verify, limits.secondFactor, validated, container.sessions.ready, authenticate(STRATEGY.secondFactor), twoFactor.clearChallenge, issueSession('auth.2fa_verified'));
  api.post('/step-up', doc.stepUp, guards.requireAuth, limits.secondFactor, validated, twoFactor.proveStepUp);
  api.post('/step-up/passkey/options', doc.stepUpPasskeyOptions, guards.requireAuth, limits.secondFactor, twoFactor.stepUpPasskeyOptions);

  api.router.use(twoFactor.formErrorPages);
  return api.router;
}

/** CONTRACT 9 admin reset, behind `manage:users`. Mounted at /api. */
export function userTwoFactorRoutes(container: Container) {
  const twoFactor = createTwoFactorController(container);
  const api = createApiRouter(container.docs, '/api');
  api.delete('/users/:id/2fa', doc.adminReset, container.guards.requirePermission('manage:users'), requireRecentSignIn({ returnTo: (req) => `/admin/users/${encodeURIComponent(String(req.params.id))}/edit` }), validated, twoFactor.adminReset);
  return api.router;
}
