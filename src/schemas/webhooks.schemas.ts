import { z } from 'zod';
import type { Endpoint } from '../http/api-router';
import { pagingQuery } from '../http/paging';
import { EVENT_TYPES } from '../services/operations/webhook-events';

const webhookId = z.uuid({ message: 'must be a webhook id' });
export const webhookParams = z.strictObject({ id: webhookId });
export const deliveryParams = z.strictObject({ id: z.string().regex(/^msg_[0-9a-f]{32}$/, { message: 'must be a delivery id' }) });

const events = z
  .array(z.enum(['*', ...EVENT_TYPES], { message: `must list events among ${EVENT_TYPES.join(', ')}, or "*"` }))
  .min(1, { message: 'must list at least one event' })
  .max(EVENT_TYPES.length + 1)
  .transform((list) => (list.includes('*') ? ['*'] : [...new Set(list)]))
  .describe('event types, or ["*"] for all');
const url = z.string().trim().min(1, { message: 'is required' }).max(2048, { message: 'must be at most 2048 characters' });
const description = z.string().trim().max(255, { message: 'must be at most 255 characters' }).nullable();

/** The one rule for a new endpoint: the JSON body and the admin page's form alike. */
export const webhookCreate = z.strictObject({ url, events, description: description.optional(), active: z.boolean().optional() });
export const webhookUpdate = z
  .strictObject({ url: url.optional(), events: events.optional(), description: description.optional(), active: z.boolean().optional() })
  .refine((patch) => Object.keys(patch).length > 0, { message: 'nothing to change' });

const webhook = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string().nullable(),
  events: z.array(z.string()),
  active: z.boolean(),
  disabledReason: z.string().nullable().describe('why the service disabled it (410, failing for days); null otherwise'),
  previousSecretUntil: z.string().nullable().describe('ISO 8601: until when the secret before the last rotation signs too'),
  createdAt: z.string(),
  updatedAt: z.string(),
});
const withSecret = z.object({ webhook, secret: z.string().describe('the signing secret (whsec_…): shown this once, never again') });
const delivery = z.object({
  id: z.string().describe('the webhook-id header, the same on every retry'),
  event: z.string(),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number(),
  responseStatus: z.number().nullable(),
  error: z.string().nullable().describe('why the last attempt failed (a status, a timeout), never the answer’s body'),
  createdAt: z.string(),
  lastAttemptAt: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
});

const tags = ['Webhooks'];
const denials = { 401: 'not signed in', 403: 'Insufficient permissions, or "Recent sign-in required" with stepUp: true' };
const notFound = { 404: 'Webhook not found' };

/** CONTRACT 16: webhook endpoints, behind `manage:settings` and a recent sign-in. */
export const WEBHOOK_ENDPOINTS = {
  create: {
    summary: 'Add a webhook endpoint; its signing secret is in the answer, once',
    tags,
    auth: true,
    body: webhookCreate,
    responses: { 201: { description: 'the endpoint and its secret', schema: withSecret }, ...denials },
  },
  list: { summary: 'The webhook endpoints', tags, auth: true, responses: { 200: { description: 'the endpoints', schema: z.object({ webhooks: z.array(webhook) }) }, ...denials } },
  get: { summary: 'One webhook endpoint', tags, auth: true, params: webhookParams, responses: { 200: { description: 'the endpoint', schema: z.object({ webhook }) }, ...denials, ...notFound } },
  update: {
    summary: 'Change a webhook endpoint (enabling it again clears why it was disabled)',
    tags,
    auth: true,
    params: webhookParams,
    body: webhookUpdate,
    responses: { 200: { description: 'the endpoint', schema: z.object({ webhook }) }, ...denials, ...notFound },
  },
  remove: { summary: 'Delete a webhook endpoint and its deliveries', tags, auth: true, params: webhookParams, responses: { 204: 'deleted', ...denials, ...notFound } },
  rotateSecret: {
    summary: 'A new signing secret; the previous one signs beside it for 24 hours',
    tags,
    auth: true,
    params: webhookParams,
    responses: { 200: { description: 'the endpoint and its new secret', schema: withSecret }, ...denials, ...notFound },
  },
  test: {
    summary: 'Send a webhook.test event to this endpoint',
    tags,
    auth: true,
    params: webhookParams,
    responses: { 202: { description: 'the queued delivery', schema: z.object({ delivery }) }, ...denials, ...notFound, 409: 'The webhook is disabled' },
  },
  deliveries: {
    summary: 'An endpoint’s deliveries, newest first',
    tags,
    auth: true,
    params: webhookParams,
    query: z.strictObject(pagingQuery),
    responses: {
      200: { description: 'one page', schema: z.object({ deliveries: z.array(delivery), total: z.number(), page: z.number(), limit: z.number() }) },
      ...denials,
      ...notFound,
    },
  },
  retry: {
    summary: 'Attempt a delivery again now (same webhook-id)',
    tags,
    auth: true,
    params: deliveryParams,
    responses: { 202: { description: 'the delivery, pending', schema: z.object({ delivery }) }, ...denials, 404: 'Delivery not found', 409: 'The webhook is disabled' },
  },
} satisfies Record<string, Endpoint>;
