import { z } from 'zod';
import type { Endpoint } from '../http/api-router';
import { PLUGIN_NAMES, SECRET_MASK } from '../plugins';
import { pagingQuery } from '../http/paging';
import { OUTBOX_STATUSES } from '../models/outbox';

const nameParams = z.strictObject({ name: z.string().min(1).max(64, { message: 'must be at most 64 characters' }) });
const updateBody = z
  .strictObject({
    active: z.boolean({ message: 'must be true or false' }).optional(),
    settings: z
      .record(z.string(), z.unknown(), { message: 'must be an object' })
      .optional()
      .describe(`Merged into the stored settings and validated as a whole; null removes a key; "${SECRET_MASK}" keeps a stored secret.`),
  })
  .refine((body) => body.active !== undefined || body.settings !== undefined, { message: 'name active or settings' });
const plugin = z.object({ name: z.enum(PLUGIN_NAMES), active: z.boolean(), settings: z.record(z.string(), z.unknown()) });
const pluginResponse = z.object({ plugin });

const outboundMail = z.object({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  status: z.enum(OUTBOX_STATUSES).describe('pending: sent or retried soon; delivered; failed: given up (expired or a day of failures)'),
  attempts: z.number(),
  createdAt: z.string(),
  lastAttemptAt: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
});

const denials = { 401: 'not signed in', 403: 'Insufficient permissions' };
const tags = ['Plugins'];

/** The OpenAPI description (and, through its schemas, the validation) of each /api/plugins endpoint. */
export const PLUGINS_ENDPOINTS = {
  list: {
    summary: `Every plugin (${PLUGIN_NAMES.join(', ')}) with its settings, secrets masked`,
    tags,
    auth: true,
    responses: { 200: { description: 'plugins', schema: z.object({ plugins: z.array(plugin) }) }, ...denials },
  },
  get: {
    summary: 'One plugin, secrets masked',
    tags,
    auth: true,
    params: nameParams,
    responses: { 200: { description: 'the plugin', schema: pluginResponse }, 404: 'unknown plugin', ...denials },
  },
  update: {
    summary: 'Switch a plugin on or off and/or change its settings',
    tags,
    auth: true,
    params: nameParams,
    body: updateBody,
    responses: { 200: { description: 'the plugin', schema: pluginResponse }, 400: 'validation failed (the field is named)', 404: 'unknown plugin', ...denials },
  },
  outboundMail: {
    summary: 'Outbound mail, newest first: address, subject, status and attempts (never the body: it holds codes and links)',
    tags,
    auth: true,
    query: z.strictObject(pagingQuery),
    responses: { 200: { description: 'one page', schema: z.object({ mails: z.array(outboundMail), total: z.number(), page: z.number(), limit: z.number() }) }, 400: 'bad paging', ...denials },
  },
} satisfies Record<string, Endpoint>;
