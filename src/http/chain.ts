import type { RequestHandler } from 'express';

/**
 * Several app-wide middlewares as one: every request passes them in order, so the router need not match
 * and dispatch each as a layer of its own (that bookkeeping cost more than some of the middlewares).
 * Errors, thrown or rejected, go to `next(err)` as they would from separate layers.
 */
export function chain(...handlers: RequestHandler[]): RequestHandler {
  return (req, res, next) => {
    let index = 0;
    const step = (err?: unknown): void => {
      if (err !== undefined && err !== null) return next(err);
      const handler = handlers[index++];
      if (!handler) return next();
      try {
        const result = handler(req, res, step) as unknown;
        if (result instanceof Promise) result.catch(next);
      } catch (thrown) {
        next(thrown);
      }
    };
    step();
  };
}
