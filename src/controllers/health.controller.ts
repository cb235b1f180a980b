import type { RequestHandler } from 'express';
import type { Sequelize } from 'sequelize';
import type { KeyValueStore } from '../store';
import { checkReadiness } from '../services/operations/health.service';

/** Handlers of the liveness and readiness probes. */
export function createHealthController(deps: { sequelize: Sequelize; store: KeyValueStore }) {
  const live: RequestHandler = (_req, res) => {
    res.json({ status: 'ok' });
  };

  const ready: RequestHandler = async (_req, res) => {
    const { ready: isReady, ...checks } = await checkReadiness(deps);
    res.status(isReady ? 200 : 503);
    if (!isReady) res.setHeader('Retry-After', '5');
    res.json({ status: isReady ? 'ok' : 'unavailable', ...checks });
  };

  return { live, ready };
}
