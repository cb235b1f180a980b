import { Router } from 'express';
import type { Container } from '../../container';
import { createContentPageController } from '../../controllers/admin/content.controller';

/**
 * `/admin/content…` (`create:content`: admins, editors, authors). Which item a user may edit or delete,
 * and to which status, is the content policy's decision inside the controller and the service.
 */
export function contentPageRoutes(container: Container): Router {
  const { page } = container.adminPages;
  const content = createContentPageController(container);
  const router = Router();
  const writers = page('create:content');

  router.get('/content', ...writers, content.list);
  // Before /content/:id/…: "new" is not an id.
  router.get('/content/new', ...writers, content.newForm);
  router.post('/content/new', ...writers, content.create);
  router.get('/content/:id/edit', ...writers, content.editForm);
  router.post('/content/:id/edit', ...writers, content.update);
  router.post('/content/:id/delete', ...writers, content.remove);
  return router;
}
