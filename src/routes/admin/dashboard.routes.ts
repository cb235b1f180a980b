import { Router } from 'express';
import type { Container } from '../../container';
import { createDashboardController } from '../../controllers/admin/dashboard.controller';

/** `/admin`: the dashboard, for every role with admin-panel access. */
export function dashboardPageRoutes(container: Container): Router {
  const { page } = container.adminPages;
  const dashboard = createDashboardController(container);
  const router = Router();

  router.get('/', ...page('access:admin'), dashboard.show);
  return router;
}
