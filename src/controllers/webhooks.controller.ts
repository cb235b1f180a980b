import type { RequestHandler } from 'express';
import type { Container } from '../container';
import { adminAudit } from '../http/request-context';
import type { WebhookInput } from '../services/operations/webhooks.service';

/** Handlers of CONTRACT 16's webhook endpoints; the service does the work. */
export function createWebhooksController({ webhooks }: Container) {
  const id = (req: Parameters<RequestHandler>[0]) => req.params.id as string;

  const create: RequestHandler = async (req, res) => {
    res.status(201).json(await webhooks.create(req.body as WebhookInput, adminAudit(req)));
  };
  const list: RequestHandler = async (_req, res) => {
    res.json({ webhooks: await webhooks.list() });
  };
  const get: RequestHandler = async (req, res) => {
    res.json({ webhook: await webhooks.get(id(req)) });
  };
  const update: RequestHandler = async (req, res) => {
    res.json({ webhook: await webhooks.update(id(req), req.body as Partial<WebhookInput>, adminAudit(req)) });
  };
  const remove: RequestHandler = async (req, res) => {
    await webhooks.remove(id(req), adminAudit(req));
    res.status(204).end();
  };
  const rotateSecret: RequestHandler = async (req, res) => {
    res.json(await webhooks.rotateSecret(id(req), adminAudit(req)));
  };
  const test: RequestHandler = async (req, res) => {
    res.status(202).json({ delivery: await webhooks.sendTest(id(req), adminAudit(req)) });
  };
  const deliveries: RequestHandler = async (req, res) => {
    res.json(await webhooks.deliveries(id(req), req.query as unknown as { page: number; limit: number }));
  };
  const retry: RequestHandler = async (req, res) => {
    res.status(202).json({ delivery: await webhooks.retry(id(req)) });
  };

  return { create, list, get, update, remove, rotateSecret, test, deliveries, retry };
}
