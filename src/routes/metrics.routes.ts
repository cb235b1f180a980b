import crypto from 'node:crypto';
import { Router } from 'express';
import type { Metrics } from '../metrics/metrics';
import { AppError } from '../http/app-error';

export const METRICS_MESSAGES = {
  unauthorized: 'A valid metrics token is required',
} as const;

const digest = (value: string) => crypto.createHash('sha256').update(value).digest();

/**
 * GET /metrics in Prometheus text format, for `Authorization: Bearer <METRICS_TOKEN>` only. Mounted only
 * when METRICS_TOKEN is set (otherwise the path is an unknown route, 404). The token is compared as a
 * SHA-256 digest with timingSafeEqual: equal lengths whatever was sent, and no early exit on the first
 * differing character.
 */
export function metricsRoutes(deps: { token: string; metrics: Pick<Metrics, 'registry'> }): Router {
  const { registry } = deps.metrics;
  const expected = digest(deps.token);
  const router = Router();
  router.get('/metrics', async (req, res) => {
    const header = req.headers.authorization;
    const presented = typeof header === 'string' && /^Bearer /i.test(header) ? header.slice(7).trim() : '';
    if (!crypto.timingSafeEqual(digest(presented), expected)) {
      throw AppError.unauthorized(METRICS_MESSAGES.unauthorized, { headers: { 'WWW-Authenticate': 'Bearer' } });
    }
    res.setHeader('Cache-Control', 'no-store');
    res.type(registry.contentType).send(await registry.metrics());
  });
  return router;
}
