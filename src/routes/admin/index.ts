import { Router } from 'express';
import type { Container } from '../../container';
import { dashboardPageRoutes } from './dashboard.routes';
import { settingsPageRoutes } from './settings.routes';
import { pluginsPageRoutes } from './plugins.routes';

/**
 * The server-rendered admin site (CONTRACT 6), mounted at /admin. Each file beside this one is the route
 * table of one area; every page line starts with `...page('<permission>')` (src/middleware/admin-pages.ts).
 */
export function adminRoutes(container: Container): Router {
  const router = Router();
  router.use(dashboardPageRoutes(container));
  router.use(settingsPageRoutes(container));
  router.use(pluginsPageRoutes(container));
  return router;
}
