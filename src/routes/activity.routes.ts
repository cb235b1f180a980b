import { z } from 'zod';
import type { Container } from '../container';
import { createApiRouter } from '../http/api-router';
import { pagingQuery } from '../http/paging';
import { ACTIVITY_ACTIONS, type ActivityFilter } from '../services/activity.service';

const listQuery = z.strictObject({
  ...pagingQuery,
  action: z.enum(ACTIVITY_ACTIONS, { message: 'is not a known action' }).optional(),
  userId: z.string().min(1).max(64).optional(),
});
const log = z.object({
  id: z.number().int(),
  action: z.string(),
  userId: z.string().nullable(),
  email: z.string().nullable(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  details: z.record(z.string(), z.unknown()).nullable(),
  createdAt: z.string(),
});

/** CONTRACT 4 activity log, behind `view:activity-logs`. */
export function activityRoutes(container: Container) {
  const { activity, guards } = container;
  const api = createApiRouter(container.docs, '/api');
  const viewLogs = [guards.requirePermission('view:activity-logs')];

  api.get(
    '/activity-logs',
    {
      summary: 'The activity log, newest first (filter by action and user)',
      tags: ['Activity'],
      auth: true,
      query: listQuery,
      responses: { 200: { description: 'a page of entries', schema: z.object({ logs: z.array(log), total: z.number().int() }) }, 400: 'bad paging or filter', 401: 'not signed in', 403: 'Insufficient permissions' },
    },
    ...viewLogs,
    async (req, res) => {
      res.json(await activity.list(req.query as unknown as ActivityFilter));
    },
  );
  return api.router;
}
