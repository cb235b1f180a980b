import type { Container } from '../container';
import { createApiRouter } from '../http/api-router';
import { createWebhooksController } from '../controllers/webhooks.controller';
import { requireRecentSignIn } from '../middleware/step-up';
import { WEBHOOK_ENDPOINTS as doc } from '../schemas/webhooks.schemas';

/** Where a page's webhook action comes back to after a step-up. */
export const WEBHOOKS_PAGE = '/admin/settings/webhooks';

/** CONTRACT 16: webhook endpoints, behind `manage:settings`; every one is a step-up route (secrets, outbound URLs). Mounted at /api. */
export function webhooksRoutes(container: Container) {
  const hooks = createWebhooksController(container);
  const api = createApiRouter(container.docs, '/api');
  const admin = [container.guards.requirePermission('manage:settings'), requireRecentSignIn({ returnTo: WEBHOOKS_PAGE })];

  // Before /webhooks/:id so the literal path is not read as an endpoint id.
  api.post('/webhooks/deliveries/:id/retry', doc.retry, ...admin, hooks.retry);
  api.post('/webhooks', doc.create, ...admin, hooks.create);
  api.get('/webhooks', doc.list, ...admin, hooks.list);
  api.get('/webhooks/:id', doc.get, ...admin, hooks.get);
  api.patch('/webhooks/:id', doc.update, ...admin, hooks.update);
  api.delete('/webhooks/:id', doc.remove, ...admin, hooks.remove);
  api.post('/webhooks/:id/secret', doc.rotateSecret, ...admin, hooks.rotateSecret);
  api.post('/webhooks/:id/test', doc.test, ...admin, hooks.test);
  api.get('/webhooks/:id/deliveries', doc.deliveries, ...admin, hooks.deliveries);
  return api.router;
}
