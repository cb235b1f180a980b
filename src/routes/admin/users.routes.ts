import { Router } from 'express';
import type { Container } from '../../container';
import { createUsersPageController } from '../../controllers/admin/users.controller';

/** `/admin/users…` (`manage:users`): list, create, edit with profile, delete. Forms post to their own page. */
export function usersPageRoutes(container: Container): Router {
  const { page } = container.adminPages;
  const users = createUsersPageController(container);
  const router = Router();
  const manageUsers = page('manage:users');

  router.get('/users', ...manageUsers, users.list);
  // Before /users/:id/…: "new" is not an id.
  router.get('/users/new', ...manageUsers, users.newForm);
  router.post('/users/new', ...manageUsers, users.create);
  router.get('/users/:id/edit', ...manageUsers, users.editForm);
  router.post('/users/:id/edit', ...manageUsers, users.update);
  router.post('/users/:id/delete', ...manageUsers, users.remove);
  router.post('/users/:id/sessions/revoke-all', ...manageUsers, users.revokeAllSessions);
  router.post('/users/:id/sessions/:sid/revoke', ...manageUsers, users.revokeSession);
  return router;
}
