import { Router } from 'express';
import type { Container } from '../../container';
import { createCollectionsPageController } from '../../controllers/admin/collections.controller';

/** `/admin/collections…` (`manage:collections`): list with a create form, edit, delete. */
export function collectionsPageRoutes(container: Container): Router {
  const { page } = container.adminPages;
  const collections = createCollectionsPageController(container);
  const router = Router();
  const manageCollections = page('manage:collections');

  router.get('/collections', ...manageCollections, collections.list);
  router.post('/collections', ...manageCollections, collections.create);
  router.get('/collections/:id/edit', ...manageCollections, collections.editForm);
  router.post('/collections/:id/edit', ...manageCollections, collections.update);
  router.post('/collections/:id/delete', ...manageCollections, collections.remove);
  return router;
}
