import type { Container } from '../container';
import { createApiRouter, validated } from '../http/api-router';
import { STRATEGY } from '../sign-in/passport';
import { createOtpController } from '../controllers/otp.controller';
import { OTP_ENDPOINTS as doc } from '../schemas/otp.schemas';

/** CONTRACT 4 OTP sign-in and CONTRACT 6 its page, behind the `otp-login` plugin. Mounted at /auth/otp. */
export function otpRoutes(container: Container) {
  const { limits, authenticate, issueSession } = container;
  const otp = createOtpController(container);
  const api = createApiRouter(container.docs, '/auth/otp');

  // HTML page: not a JSON route, so not in the OpenAPI document.
  api.router.get('/', otp.enabled, otp.page);

  api.post('/request', doc.request, otp.enabled, limits.otpRequest, validated, container.ssoEnforcement, otp.request);
  api.post('/verify', doc.verify, otp.enabled, validated, container.ssoEnforcement, authenticate(STRATEGY.otp), issueSession('auth.otp_verified'));

  api.router.use(otp.formErrorPages);
  return api.router;
}
