import crypto from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import type { Logger } from 'pino';
import { redactUrl } from '../logger';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** The request id (from a well-formed X-Request-Id, else generated); echoed in the response. */
      id: string;
      /** A logger bound to this request's id (created on first use). */
      log: Logger;
    }
  }
}

/**
 * Gives every request of this app a `req.log` bound to its id, as a getter on the app's request prototype:
 * defining it on each request object would turn that object into a slow dictionary-mode object for the
 * whole request (measured: a fifth of `/auth/me`'s CPU). Only error paths use it, so it is made on use.
 */
function installRequestLog(req: Request, logger: Logger): void {
  const prototype = Object.getPrototypeOf(req) as object;
  if (withRequestLog.has(prototype)) return;
  withRequestLog.add(prototype);
  Object.defineProperty(prototype, 'log', {
    configurable: true,
    get(this: Request) {
      return logger.child({ reqId: this.id });
    },
  });
}
const withRequestLog = new WeakSet<object>();

/**
 * One access-log line per request, written when the response is done: request id, method, the URL with
 * credential-like query values replaced, status and duration. Never headers or bodies, so the line needs
 * no redaction pass (the process logger's redaction costs more than the rest of the line on a fast route);
 * `req.log`, for anything else a request logs, keeps it.
 */
export function requestLogger(logger: Logger): RequestHandler {
  const access = logger.child({}, { redact: [] });
  return (req, res, next) => {
    const started = performance.now();
    const incoming = req.headers['x-request-id'];
    const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
    req.id = id;
    res.setHeader('X-Request-Id', id);
    installRequestLog(req, logger);
    // 'close' comes for every response, also when the client went away before it was finished.
    res.once('close', () => {
      const status = res.statusCode;
      const responseTime = Math.round((performance.now() - started) * 10) / 10;
      const line = { reqId: id, method: req.method, url: redactUrl(req.originalUrl), status, responseTime };
      if (!res.writableFinished) access.warn(line, 'request aborted');
      else if (status >= 500) access.error(line, 'request failed');
      else access.info(line, 'request completed');
    });
    next();
  };
}
