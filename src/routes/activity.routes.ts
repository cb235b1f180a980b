import type { Container } from '../container';
import { createApiRouter } from '../http/api-router';
import { createActivityController } from '../controllers/activity.controller';
import { ACTIVITY_ENDPOINTS as doc } from '../schemas/activity.schemas';

/** CONTRACT 4 activity log, behind `view:activity-logs`. Mounted at /api. */
export function activityRoutes(container: Container) {
  const { guards } = container;
  const activity = createActivityController(container);
  const api = createApiRouter(container.docs, '/api');
  const viewLogs = [guards.requirePermission('view:activity-logs')];

  api.get('/activity-logs', doc.list, ...viewLogs, activity.list);
  return api.router;
}
