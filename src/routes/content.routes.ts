import type { Container } from '../container';
import { createApiRouter } from '../http/api-router';
import { createContentController } from '../controllers/content.controller';
import { CONTENT_ENDPOINTS as doc } from '../schemas/content.schemas';

/**
 * CONTRACT 4 content. Mounted at /api. The guards here are the coarse, per-route half of the matrix;
 * which item a user may read, edit or delete is decided by contentPolicy in the service.
 */
export function contentRoutes(container: Container) {
  const { guards } = container;
  const content = createContentController(container);
  const api = createApiRouter(container.docs, '/api');
  const signedIn = [guards.requireAuth];
  const createContent = [guards.requirePermission('create:content')];
  // Everyone who may edit any item may edit their own, so this lets exactly the editing roles through.
  const editContent = [guards.requirePermission('edit:own-content')];
  // Likewise for deletion: the roles that may delete anything hold delete:own-content.
  const deleteContent = [guards.requirePermission('delete:own-content')];

  api.get('/content', doc.list, ...signedIn, content.list);
  api.post('/content', doc.create, ...createContent, content.create);
  api.get('/content/:id', doc.get, ...signedIn, content.get);
  api.put('/content/:id', doc.update, ...editContent, content.update);
  api.delete('/content/:id', doc.remove, ...deleteContent, content.remove);
  return api.router;
}
