import type { Container } from '../container';
import { createApiRouter } from '../http/api-router';
import { createUsersController } from '../controllers/users.controller';
import { USERS_ENDPOINTS as doc } from '../schemas/users.schemas';

/** CONTRACT 4 users API, behind `manage:users`. Mounted at /api. */
export function usersRoutes(container: Container) {
  const { guards } = container;
  const users = createUsersController(container);
  const api = createApiRouter(container.docs, '/api');
  const manageUsers = [guards.requirePermission('manage:users')];

  api.get('/users', doc.list, ...manageUsers, users.list);
  api.post('/users', doc.create, ...manageUsers, users.create);
  api.get('/users/:id', doc.get, ...manageUsers, users.get);
  api.patch('/users/:id', doc.update, ...manageUsers, users.update);
  api.delete('/users/:id', doc.remove, ...manageUsers, users.remove);
  return api.router;
}
