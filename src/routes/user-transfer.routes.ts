import type { Container } from '../container';
import { createApiRouter } from '../http/api-router';
import { requireRecentSignIn } from '../middleware/step-up';
import { createUserTransferController } from '../controllers/user-transfer.controller';
import { USER_TRANSFER_ENDPOINTS as doc } from '../schemas/user-transfer.schemas';

/** The import's path: app.ts tells bodyParsing to leave its body to the handler's stream. */
export const USER_IMPORT_PATH = '/api/users/import';

/** CONTRACT 17: moving users in and out, behind `manage:users` and a recent sign-in. Mounted at /api, before /users/:id. */
export function userTransferRoutes(container: Container) {
  const { guards } = container;
  const transfer = createUserTransferController(container);
  const api = createApiRouter(container.docs, '/api');
  const manageUsers = [guards.requirePermission('manage:users'), requireRecentSignIn({ returnTo: '/admin/users' })];

  api.post('/users/import', doc.import, ...manageUsers, transfer.importUsers);
  api.get('/users/export', doc.export, ...manageUsers, transfer.exportUsers);
  return api.router;
}
