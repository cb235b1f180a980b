import type { RequestHandler } from 'express';
import type { Container } from '../container';
import { adminAudit } from '../http/request-context';
import type { PluginUpdate } from '../services/operations/plugin-registry';

/** Handlers of the CONTRACT 4 plugins API; the registry masks secrets in every answer. */
export function createPluginsController({ plugins, mailer }: Container) {
  const list: RequestHandler = async (_req, res) => {
    res.json({ plugins: await plugins.list() });
  };

  const get: RequestHandler = async (req, res) => {
    res.json({ plugin: await plugins.get(req.params.name as string) });
  };

  const update: RequestHandler = async (req, res) => {
    res.json({ plugin: await plugins.update(req.params.name as string, req.body as PluginUpdate, adminAudit(req)) });
  };

  const outboundMail: RequestHandler = async (req, res) => {
    res.json(await mailer.list(req.query as unknown as { page: number; limit: number }));
  };

  return { list, get, update, outboundMail };
}
