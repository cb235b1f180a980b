import type { Container } from '../container';
import { createApiRouter, validated } from '../http/api-router';
import { createAuthController } from '../controllers/auth.controller';
import { noStoreAll } from '../http/no-store';
import { STRATEGY } from '../sign-in/passport';
import { AUTH_ENDPOINTS as doc } from '../schemas/auth.schemas';

/**
 * SPEC 4.1, 4.4, 4.6 and CONTRACT 4: password sign-in and JWT sessions. Mounted at /auth. A sign-in
 * route is `limit → validate → authenticate('<strategy>') → issueSession('<activity>')`.
 */
export function authRoutes(container: Container) {
  const { guards, limits, authenticate, issueSession } = container;
  const auth = createAuthController(container);
  const api = createApiRouter(container.docs, '/auth');
  // Every /auth answer may carry or set a credential (or personal data).
  api.router.use(noStoreAll);

  // HTML pages: not JSON routes, so not in the OpenAPI document.
  api.router.get('/login', auth.loginPage);
  api.router.get('/register', auth.registerPage);

  api.post('/login', doc.login, limits.login, validated, container.passwordAdmission, container.ssoEnforcement, authenticate(STRATEGY.local), issueSession('auth.login'));
  api.post('/register', doc.register, limits.register, auth.checkRegistration, validated, auth.register, issueSession('auth.register', { status: 201 }));
  api.get('/me', doc.me, guards.requireAuth, auth.me);
  api.post('/refresh', doc.refresh, limits.refresh, auth.refresh);
  api.post('/logout', doc.logout, guards.optionalAuth, auth.logout);
  api.post('/logout-all', doc.logoutAll, guards.requireAuth, auth.logoutAll);
  api.post('/seed-admin', doc.seedAdmin, limits.seedAdmin, auth.seedAdmin);

  // After the routes: failed form posts get their page back instead of the generic error page.
  api.router.use(auth.formErrorPages);
  return api.router;
}
