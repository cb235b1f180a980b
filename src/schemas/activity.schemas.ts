import { z } from 'zod';
import type { Endpoint } from '../http/api-router';
import { pagingQuery } from '../http/paging';
import { ACTIVITY_ACTIONS } from '../services/operations/activity.service';

/** A time-range bound: an ISO 8601 instant (`2026-11-28T13:00:00Z`), as the dashboard's links carry. */
const instant = z.iso.datetime({ offset: true, message: 'must be an ISO 8601 time' }).transform((value) => new Date(value));

const listQuery = z.strictObject({
  ...pagingQuery,
  action: z.enum(ACTIVITY_ACTIONS, { message: 'is not a known action' }).optional(),
  userId: z.string().min(1).max(64).optional(),
  since: instant.optional(),
  until: instant.optional(),
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
const logList = z.object({ logs: z.array(log), total: z.number().int() });

/** The OpenAPI description (and, through its schemas, the validation) of the /api/activity-logs endpoint. */
export const ACTIVITY_ENDPOINTS = {
  list: {
    summary: 'The activity log, newest first (filter by action, user and time range)',
    tags: ['Activity'],
    auth: true,
    apiKey: true,
    query: listQuery,
    responses: {
      200: { description: 'a page of entries', schema: logList },
      400: 'bad paging or filter',
      401: 'not signed in',
      403: 'Insufficient permissions',
    },
  },
} satisfies Record<string, Endpoint>;
