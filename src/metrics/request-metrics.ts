import type { Application, RequestHandler } from 'express';
import type { Metrics } from './metrics';

/** The route label of an answer no route-table line produced (a 404, a static file, the API viewer). */
export const UNMATCHED_ROUTE = 'unmatched';

/** The parts of the router's stack this reads: each layer is a route, a mounted router, or a plain middleware. */
interface StackLayer {
  rawPath?: unknown;
  route?: { path: unknown };
  handle?: { stack?: unknown };
}

function joinPath(prefix: string, path: unknown): string {
  const tail = String(path);
  if (tail === '/' && prefix !== '') return prefix;
  return prefix + tail;
}

/**
 * Each route of the app with its full pattern (mount path + route path: `/api/users/:id`), keyed by the
 * route object the router puts on `req.route` when it matches. Read once the app has every router, so
 * labelling a request is one map lookup; the request's own URL is never a label, and the number of
 * labels is the number of route lines.
 */
export function routePatterns(app: Application): (route: unknown) => string {
  const patterns = new WeakMap<object, string>();
  const walk = (stack: StackLayer[], prefix: string) => {
    for (const layer of stack) {
      if (layer.route) patterns.set(layer.route, joinPath(prefix, layer.route.path));
      else if (Array.isArray(layer.handle?.stack)) {
        const mount = Array.isArray(layer.rawPath) ? layer.rawPath[0] : layer.rawPath;
        walk(layer.handle.stack as StackLayer[], mount === undefined || mount === '/' ? prefix : joinPath(prefix, mount));
      }
    }
  };
  walk((app as unknown as { router: { stack: StackLayer[] } }).router.stack, '');
  return (route) => (typeof route === 'object' && route !== null ? patterns.get(route) : undefined) ?? UNMATCHED_ROUTE;
}

/**
 * Counts and times every answer by method, route pattern and status. The label is read when the answer
 * is done: `req.route` is the route that matched, kept by the router also when its handler failed and
 * the app's error handler answered. Nothing is added to the request or response objects.
 */
export function requestMetrics(metrics: Pick<Metrics, 'request'>): RequestHandler {
  // Read at the first answer: by then the app has mounted every router.
  let patternOf: ((route: unknown) => string) | undefined;
  return (req, res, next) => {
    const started = performance.now();
    // 'close' comes for every response, also when the client went away before it was finished.
    res.once('close', () => {
      patternOf ??= routePatterns(req.app);
      metrics.request(req.method, patternOf(req.route), res.statusCode, (performance.now() - started) / 1000);
    });
    next();
  };
}
