import { z } from 'zod';
import type { Container } from '../container';
import { createApiRouter } from '../http/api-router';
import { adminAudit } from '../http/request-context';
import type { PluginUpdate } from '../plugins/plugin-registry';
import { PLUGIN_NAMES, SECRET_MASK } from '../plugins';

const nameParams = z.strictObject({ name: z.string().min(1).max(64) });
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
const denials = { 401: 'not signed in', 403: 'Insufficient permissions' };

/** CONTRACT 4 plugins registry, behind `manage:plugins`. Secrets are masked in every answer. */
export function pluginsRoutes(container: Container) {
  const { plugins, guards } = container;
  const api = createApiRouter(container.docs, '/api');
  const managePlugins = [guards.requirePermission('manage:plugins')];
  const tags = ['Plugins'];

  api.get(
    '/plugins',
    { summary: `Every plugin (${PLUGIN_NAMES.join(', ')}) with its settings, secrets masked`, tags, auth: true, responses: { 200: { description: 'plugins', schema: z.object({ plugins: z.array(plugin) }) }, ...denials } },
    ...managePlugins,
    async (_req, res) => {
      res.json({ plugins: await plugins.list() });
    },
  );
  api.get(
    '/plugins/:name',
    { summary: 'One plugin, secrets masked', tags, auth: true, params: nameParams, responses: { 200: { description: 'the plugin', schema: z.object({ plugin }) }, 404: 'unknown plugin', ...denials } },
    ...managePlugins,
    async (req, res) => {
      res.json({ plugin: await plugins.get(req.params.name as string) });
    },
  );
  api.put(
    '/plugins/:name',
    {
      summary: 'Switch a plugin on or off and/or change its settings',
      tags,
      auth: true,
      params: nameParams,
      body: updateBody,
      responses: { 200: { description: 'the plugin', schema: z.object({ plugin }) }, 400: 'validation failed (the field is named)', 404: 'unknown plugin', ...denials },
    },
    ...managePlugins,
    async (req, res) => {
      res.json({ plugin: await plugins.update(req.params.name as string, req.body as PluginUpdate, adminAudit(req)) });
    },
  );
  return api.router;
}
