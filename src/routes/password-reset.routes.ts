import type { Container } from '../container';
import { createApiRouter } from '../http/api-router';
import { createPasswordResetController } from '../controllers/password-reset.controller';
import { PASSWORD_RESET_ENDPOINTS as doc } from '../schemas/password-reset.schemas';

/** CONTRACT 4 password reset: request a link, show the form, set the new password. Mounted at /auth. */
export function passwordResetRoutes(container: Container) {
  const { limits } = container;
  const reset = createPasswordResetController(container);
  const api = createApiRouter(container.docs, '/auth');

  // HTML pages: not JSON routes, so not in the OpenAPI document.
  api.router.get('/forgot-password', reset.forgotPage);
  api.router.get('/reset-password', reset.resetPage);

  api.post('/request-password-reset', doc.request, limits.passwordReset, reset.requestReset);
  api.post('/reset-password', doc.reset, reset.reset);

  api.router.use(reset.formErrorPages);
  return api.router;
}
