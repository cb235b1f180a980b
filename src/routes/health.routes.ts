import { Router } from 'express';
import type { Sequelize } from 'sequelize';
import type { KeyValueStore } from '../store';

const CHECK_TIMEOUT_MS = 2000;

async function probe(check: () => Promise<unknown>): Promise<'ok' | 'unavailable'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timeout')), CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([check(), timeout]);
    return 'ok';
  } catch {
    return 'unavailable';
  } finally {
    clearTimeout(timer);
  }
}

/** Liveness (the process answers) and readiness (its database and key-value store answer); mounted at /health. */
export function healthRoutes({ sequelize, store }: { sequelize: Sequelize; store: KeyValueStore }): Router {
  const router = Router();
  router.get('/', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/ready', async (_req, res) => {
    const [database, keyValueStore] = await Promise.all([probe(() => sequelize.query('SELECT 1')), probe(() => store.ping())]);
    const ready = database === 'ok' && keyValueStore === 'ok';
    res.status(ready ? 200 : 503);
    if (!ready) res.setHeader('Retry-After', '5');
    res.json({ status: ready ? 'ok' : 'unavailable', database, store: keyValueStore, storeKind: store.kind });
  });
  return router;
}
