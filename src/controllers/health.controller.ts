import type { RequestHandler } from 'express';
import type { Sequelize } from 'sequelize';
import type { KeyValueStore } from '../store';
import { checkReadiness } from '../services/operations/health.service';

/** Handlers of the liveness and readiness probes. */
export function createHealthController(deps: { sequelize: Sequelize; store: KeyValueStore; isDraining?: () => boolean }) {
  const live: RequestHandler = (_req, res) => {
    res.json({ status: 'ok' });
  };

  const ready: RequestHandler = async (_req, res) => {
    const { ready: dependenciesReady, ...checks } = await checkReadiness(deps);
    // A process shutting down is not ready whatever its dependencies say: load balancers stop sending to it.
    const isReady = dependenciesReady && !deps.isDraining?.();
    res.status(isReady ? 200 : 503);
    if (!isReady) res.setHeader('Retry-After', '5');
    res.json({ status: isReady ? 'ok' : 'unavailable', ...checks });
  };

  return { live, ready };
}
