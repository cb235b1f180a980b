import type { Container } from '../container';
import { createApiRouter, validated } from '../http/api-router';
import { noStoreAll } from '../http/no-store';
import { requireRecentSignIn } from '../middleware/step-up';
import { createAccountController } from '../controllers/account.controller';
import { ACCOUNT_ENDPOINTS as doc } from '../schemas/account.schemas';

/** Where a page sent to sign in again comes back to. */
const PROFILE_PAGE = '/admin/profile';

/**
 * CONTRACT 12, mounted at /auth: email verification, change of address, deletion and export of one's own
 * account, and the JSON change of password (CONTRACT 18). Changing the password or the address and deleting the
 * account are step-up actions (CONTRACT 9).
 */
export function accountRoutes(container: Container) {
  const { guards, limits } = container;
  const account = createAccountController(container);
  const api = createApiRouter(container.docs, '/auth');
  const recent = requireRecentSignIn({ returnTo: PROFILE_PAGE });
  // Links are credentials; answers hold personal data.
  api.router.use(['/verify-email', '/email', '/account', '/password'], noStoreAll);

  api.get('/verify-email', doc.verifyEmail, limits.magicLink, validated, account.verifyEmail);
  api.post('/verify-email/resend', doc.resendVerification, guards.requireAuth, limits.magicLink, account.resendVerification);
  // The current password is a guess like a sign-in's: it counts against the sign-in limit.
  api.post('/email/change', doc.changeEmail, guards.requireAuth, recent, limits.login, validated, account.changeEmail);
  // The current password counts against the sign-in limit, as on the email change.
  api.post('/password', doc.changePassword, guards.requireAuth, recent, limits.login, validated, account.changePassword);
  api.get('/email/confirm', doc.confirmEmail, limits.magicLink, validated, account.confirmEmail);
  api.delete('/account', doc.deleteAccount, guards.requireAuth, recent, account.deleteAccount);
  api.get('/account/export', doc.exportAccount, guards.requireAuth, account.exportAccount);

  api.router.use(['/verify-email', '/email/confirm'], account.linkFailed);
  return api.router;
}
