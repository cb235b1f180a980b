import { z } from 'zod';
import type { Sequelize } from 'sequelize';
import type { KeyValueStore } from '../store';
import { createHealthController } from '../controllers/health.controller';
import { createApiRouter, type ApiDocs, type Endpoint } from '../http/api-router';

const tags = ['Health'];
const check = z.enum(['ok', 'unavailable']);
const readiness = z.object({ status: check, database: check, store: check, storeKind: z.enum(['memory', 'redis']) });

const HEALTH_ENDPOINTS = {
  live: { summary: 'Liveness: the process answers', tags, responses: { 200: { description: 'alive', schema: z.object({ status: z.literal('ok') }) } } },
  ready: {
    summary: 'Readiness: the database and the key-value store answer (each within 2 s)',
    tags,
    responses: { 200: { description: 'ready', schema: readiness }, 503: { description: 'not ready; Retry-After: 5', schema: readiness } },
  },
} satisfies Record<string, Endpoint>;

/** Liveness (the process answers) and readiness (its database and key-value store answer); mounted at /health. */
export function healthRoutes(deps: { sequelize: Sequelize; store: KeyValueStore; docs: ApiDocs; isDraining?: () => boolean }) {
  const api = createApiRouter(deps.docs, '/health');
  const health = createHealthController(deps);
  api.get('/', HEALTH_ENDPOINTS.live, health.live);
  api.get('/ready', HEALTH_ENDPOINTS.ready, health.ready);
  return api.router;
}
