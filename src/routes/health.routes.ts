import { Router } from 'express';
import type { Sequelize } from 'sequelize';
import type { KeyValueStore } from '../store';
import { createHealthController } from '../controllers/health.controller';

/** Liveness (the process answers) and readiness (its database and key-value store answer); mounted at /health. */
export function healthRoutes(deps: { sequelize: Sequelize; store: KeyValueStore }): Router {
  const router = Router();
  const health = createHealthController(deps);
  router.get('/', health.live);
  router.get('/ready', health.ready);
  return router;
}
