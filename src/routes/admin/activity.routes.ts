import { Router } from 'express';
import type { Container } from '../../container';
import { createActivityPageController } from '../../controllers/admin/activity.controller';

/** `/admin/activity` (`view:activity-logs`): the log with an action filter and paging. */
export function activityPageRoutes(container: Container): Router {
  const { page } = container.adminPages;
  const activity = createActivityPageController(container);
  const router = Router();

  router.get('/activity', ...page('view:activity-logs'), activity.list);
  return router;
}
