import type { Container } from '../container';
import { createApiRouter, validated } from '../http/api-router';
import { createOAuthClientsController } from '../controllers/oauth-clients.controller';
import { requireRecentSignIn } from '../middleware/step-up';
import { OAUTH_CLIENT_ENDPOINTS as doc } from '../schemas/oauth-clients.schemas';
import { APPLICATIONS_PAGE } from '../controllers/admin/applications.controller';


/**
 * CONTRACT 14: the applications that sign users in through this service, behind `manage:settings`. Reading is
 * open to the permission; every change is a step-up action (CONTRACT 9), as a secret or a redirect URI decides
 * who receives users' tokens. Mounted at /api.
 */
export function oauthClientsRoutes(container: Container) {
  const clients = createOAuthClientsController(container);
  const api = createApiRouter(container.docs, '/api');
  const manageSettings = [container.guards.requirePermission('manage:settings')];
  const stepUp = requireRecentSignIn({ returnTo: APPLICATIONS_PAGE });

  api.post('/oauth-clients', doc.create, ...manageSettings, stepUp, clients.create);
  api.get('/oauth-clients', doc.list, ...manageSettings, clients.list);
  api.get('/oauth-clients/:id', doc.get, ...manageSettings, clients.get);
  api.patch('/oauth-clients/:id', doc.update, ...manageSettings, stepUp, clients.update);
  api.delete('/oauth-clients/:id', doc.remove, ...manageSettings, stepUp, clients.remove);
  api.post('/oauth-clients/:id/secret', doc.rotateSecret, ...manageSettings, stepUp, clients.rotateSecret);
  return api.router;
}

/** CONTRACT 14: the signed-in user's connected applications. Mounted at /auth/connected-apps. */
export function connectedAppsRoutes(container: Container) {
  const clients = createOAuthClientsController(container);
  const api = createApiRouter(container.docs, '/auth/connected-apps');

  api.get('/', doc.connectedApps, container.guards.requireAuth, clients.connectedApps);
  api.delete('/:clientId', doc.disconnectApp, container.guards.requireAuth, validated, clients.disconnectApp);
  return api.router;
}
