import { Router } from 'express';
import type { Container } from '../../container';
import { createAccountCardsController } from '../../controllers/admin/account-cards.controller';
import { requireRecentSignIn } from '../../middleware/step-up';

/** `/admin/profile/…` account cards (CONTRACT 12): every signed-in user's own address and account. */
export function accountPageRoutes(container: Container): Router {
  const { adminPages, limits } = container;
  const cards = createAccountCardsController(container);
  const router = Router();
  const signedIn = adminPages.page(null);
  // Changing the address and deleting the account are step-up actions: an old sign-in signs in again first.
  const recent = requireRecentSignIn({ returnTo: '/admin/profile' });

  router.post('/profile/verify-email', ...signedIn, limits.magicLink, cards.resendVerification);
  // A current-password check is a password guess: it counts against the sign-in limit.
  router.post('/profile/email', ...signedIn, recent, limits.login, cards.changeEmail);
  router.post('/profile/delete', ...signedIn, recent, cards.deleteAccount);
  return router;
}
