import type { Container } from '../container';
import { createApiRouter } from '../http/api-router';
import { createProfileController } from '../controllers/profile.controller';
import { PROFILE_ENDPOINTS as doc } from '../schemas/profile.schemas';

/** SPEC 4.5 profile API. Mounted at /api/user-profiles. */
export function profileRoutes(container: Container) {
  const { guards } = container;
  const profile = createProfileController(container);
  const api = createApiRouter(container.docs, '/api/user-profiles');
  // Before validation: a stranger gets 403 for any id, well-formed or not.
  const ownerOrUserManager = [guards.requireSelfOr('manage:users', 'userId')];

  api.get('/schema', doc.schema, profile.schema);
  api.get('/:userId', doc.get, ...ownerOrUserManager, profile.get);
  api.put('/:userId', doc.update, ...ownerOrUserManager, profile.update);
  return api.router;
}
