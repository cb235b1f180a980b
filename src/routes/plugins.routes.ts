import type { Container } from '../container';
import { createApiRouter } from '../http/api-router';
import { createPluginsController } from '../controllers/plugins.controller';
import { requireRecentSignIn } from '../middleware/step-up';
import { PLUGINS_ENDPOINTS as doc } from '../schemas/plugins.schemas';

/**
 * CONTRACT 4 plugins registry, and the outbound mail the email plugin sends (CONTRACT 16), behind `manage:plugins`. Mounted at /api. A change is a step-up action
 * (CONTRACT 9): plugin settings decide where OAuth sign-ins and mail go, so an old session must not change them.
 */
export function pluginsRoutes(container: Container) {
  const { guards } = container;
  const plugins = createPluginsController(container);
  const api = createApiRouter(container.docs, '/api');
  const managePlugins = [guards.requirePermission('manage:plugins')];

  api.get('/plugins', doc.list, ...managePlugins, plugins.list);
  api.get('/plugins/:name', doc.get, ...managePlugins, plugins.get);
  api.put('/plugins/:name', doc.update, ...managePlugins, requireRecentSignIn({ returnTo: (req) => `/admin/plugins/${encodeURIComponent(String(req.params.name))}` }), plugins.update);
  api.get('/outbound-mail', doc.outboundMail, ...managePlugins, plugins.outboundMail);
  return api.router;
}
