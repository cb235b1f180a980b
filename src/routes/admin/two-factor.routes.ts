import { Router } from 'express';
import type { Container } from '../../container';
import { createTwoFactorPages } from '../../controllers/admin/two-factor.controller';
import { requireRecentSignIn } from '../../middleware/step-up';
import { ENROLMENT_PAGE } from '../../middleware/two-factor-gate';

/**
 * `/admin/profile/two-factor` (every signed-in user; the one admin page a user held to enrolment may open)
 * and the users edit page's reset (`manage:users`). Setup, the page while it shows a pending secret,
 * confirming it, new recovery codes and turning it off are step-up actions: an old sign-in goes to the
 * step-up prompt and comes back here.
 */
export function twoFactorPageRoutes(container: Container): Router {
  const { page } = container.adminPages;
  const pages = createTwoFactorPages(container);
  const router = Router();
  const signedIn = page(null);
  const recent = requireRecentSignIn({ returnTo: ENROLMENT_PAGE });

  router.get('/profile/two-factor', ...signedIn, pages.pendingNeedsRecent(recent), pages.show);
  router.post('/profile/two-factor/setup', ...signedIn, recent, pages.setup);
  router.post('/profile/two-factor/confirm', ...signedIn, recent, pages.confirm);
  router.post('/profile/two-factor/recovery-codes', ...signedIn, recent, pages.regenerate);
  router.post('/profile/two-factor/disable', ...signedIn, recent, pages.disable);
  router.post('/users/:id/two-factor/reset', ...page('manage:users'), requireRecentSignIn({ returnTo: (req) => `/admin/users/${encodeURIComponent(String(req.params.id))}/edit` }), pages.reset);
  return router;
}
