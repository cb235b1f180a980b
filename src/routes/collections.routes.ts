import type { Container } from '../container';
import { createApiRouter } from '../http/api-router';
import { createCollectionsController } from '../controllers/collections.controller';
import { COLLECTIONS_ENDPOINTS as doc } from '../schemas/collections.schemas';

/** CONTRACT 4 collections: any signed-in user reads them; only `manage:collections` changes them. Mounted at /api. */
export function collectionsRoutes(container: Container) {
  const { guards } = container;
  const collections = createCollectionsController(container);
  const api = createApiRouter(container.docs, '/api');
  const signedIn = [guards.requireAuth];
  const manageCollections = [guards.requirePermission('manage:collections')];

  api.get('/collections', doc.list, ...signedIn, collections.list);
  api.post('/collections', doc.create, ...manageCollections, collections.create);
  api.put('/collections/:id', doc.update, ...manageCollections, collections.update);
  api.delete('/collections/:id', doc.remove, ...manageCollections, collections.remove);
  return api.router;
}
