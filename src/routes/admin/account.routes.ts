import { Router } from 'express';
import type { Container } from '../../container';
import { createAccountCenter } from '../../controllers/admin/account-center';
import { createAccountCardsController } from '../../controllers/admin/account-cards.controller';
import { requireRecentSignIn } from '../../middleware/step-up';
import { accountPage } from '../../http/account-sections';

/** The account center's account cards (CONTRACT 12): every signed-in user's own address and account. */
export function accountPageRoutes(container: Container): Router {
  const { adminPages, limits } = container;
  const cards = createAccountCardsController(container, createAccountCenter(container));
  const router = Router();
  const signedIn = adminPages.page(null);

  router.post('/profile/verify-email', ...signedIn, limits.magicLink, cards.resendVerification);
  // Changing the address and deleting the account are step-up actions: an old sign-in signs in again first,
  // and comes back to the section the card is on. A current-password check is a password guess: it counts
  // against the sign-in limit.
  router.post('/profile/email', ...signedIn, requireRecentSignIn({ returnTo: accountPage('profile') }), limits.login, cards.changeEmail);
  router.post('/profile/delete', ...signedIn, requireRecentSignIn({ returnTo: accountPage('data') }), cards.deleteAccount);
  return router;
}
