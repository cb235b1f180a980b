import type { RequestHandler, Response } from 'express';
import type { Container } from '../../container';
import { AppError } from '../../http/app-error';
import { adminAudit } from '../../http/request-context';
import { parseOrThrow } from '../../http/validate';
import { webhookCreate } from '../../schemas/webhooks.schemas';
import { EVENT_TYPES } from '../../services/operations/webhook-events';

const PAGE = { view: 'admin/settings/webhooks', title: 'Webhooks', path: '/admin/settings/webhooks' } as const;
/** Deliveries shown per endpoint on the page; the API pages through all of them. */
const LOG_SIZE = 10;

/** /admin/settings/webhooks (CONTRACT 16): endpoints, a form to add one (events by checkbox), and each one's delivery log. */
export function createWebhooksPage({ webhooks }: Container) {
  async function draw(res: Response, status: number, extra: { values?: Record<string, unknown>; errors?: Record<string, string>; error?: string; created?: { url: string; secret: string } } = {}) {
    const endpoints = await Promise.all(
      (await webhooks.list()).map(async (endpoint) => ({ ...endpoint, log: await webhooks.deliveries(endpoint.id, { page: 1, limit: LOG_SIZE }) })),
    );
    res.status(status).render(PAGE.view, { title: PAGE.title, endpoints, eventTypes: EVENT_TYPES, values: extra.values ?? { events: [] }, errors: extra.errors ?? {}, error: extra.error, created: extra.created });
  }

  const show: RequestHandler = async (_req, res) => {
    await draw(res, 200);
  };

  // The secret is drawn in the answer to the post itself, once: never in a redirect's URL, never again.
  const create: RequestHandler = async (req, res) => {
    const body = req.body as Record<string, unknown>;
    const values = { url: body.url, description: body.description, events: [body.events ?? []].flat() };
    try {
      const input = await parseOrThrow(webhookCreate, { url: values.url ?? '', events: values.events, description: values.description || null });
      const { webhook, secret } = await webhooks.create(input, adminAudit(req));
      await draw(res, 201, { created: { url: webhook.url, secret } });
    } catch (err) {
      if (!(err instanceof AppError) || err.status !== 400) throw err;
      await draw(res, 400, { values, errors: err.options.errors ?? {}, error: err.message });
    }
  };

  const test: RequestHandler = async (req, res) => {
    await webhooks.sendTest(req.params.id as string, adminAudit(req));
    res.redirect(303, PAGE.path);
  };

  const resend: RequestHandler = async (req, res) => {
    await webhooks.retry(req.params.id as string);
    res.redirect(303, PAGE.path);
  };

  return { show, create, test, resend };
}
