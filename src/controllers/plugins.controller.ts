import type { RequestHandler } from 'express';
import type { Container } from '../container';
import { adminAudit } from '../http/request-context';
import type { PluginUpdate } from '../services/operations/plugin-registry';

/** Handlers of the CONTRACT 4 plugins API; the registry masks secrets in every answer. */
export function createPluginsController({ plugins }: Container) {
  const list: RequestHandler = async (_req, res) => {
    res.json({ plugins: await plugins.list() });
  };

  const get: RequestHandler = async (req, res) => {
    res.json({ plugin: await plugins.get(req.params.name as string) });
  };

  const update: RequestHandler = async (req, res) => {
    res.json({ plugin: await plugins.update(req.params.name as string, req.body as PluginUpdate, adminAudit(req)) });
  };

  return { list, get, update };
}
