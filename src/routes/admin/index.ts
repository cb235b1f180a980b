import { Router } from 'express';
import type { Container } from '../../container';
import { dashboardPageRoutes } from './dashboard.routes';
import { usersPageRoutes } from './users.routes';
import { profilePageRoutes } from './profile.routes';
import { twoFactorPageRoutes } from './two-factor.routes';
import { accountPageRoutes } from './account.routes';
import { contentPageRoutes } from './content.routes';
import { collectionsPageRoutes } from './collections.routes';
import { activityPageRoutes } from './activity.routes';
import { settingsPageRoutes } from './settings.routes';
import { pluginsPageRoutes } from './plugins.routes';

/**
 * The server-rendered admin site (CONTRACT 6), mounted at /admin. Each file beside this one is the route
 * table of one area; every page line starts with `...page('<permission>')` (src/middleware/admin-pages.ts).
 */
export function adminRoutes(container: Container): Router {
  const router = Router();
  router.use(dashboardPageRoutes(container));
  router.use(usersPageRoutes(container));
  router.use(profilePageRoutes(container));
  router.use(twoFactorPageRoutes(container));
  router.use(accountPageRoutes(container));
  router.use(contentPageRoutes(container));
  router.use(collectionsPageRoutes(container));
  router.use(activityPageRoutes(container));
  router.use(settingsPageRoutes(container));
  router.use(pluginsPageRoutes(container));
  return router;
}
