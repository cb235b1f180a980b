import crypto from 'node:crypto';
import type { RequestHandler } from 'express';
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
 * One access-log line per request, written when the response is done: request id, method, the URL with
 * credential-like query values replaced, status and duration. Never headers or bodies, so the line needs
 * no redaction pass (the process logger's redaction costs more than the rest of the line on a fast route);
 * `req.log`, for anything else a request logs, keeps it.
 */
export function requestLogger(logger: Logger): RequestHandler {
  const access = logger.child({}, { redact: [] });
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    const incoming = req.headers['x-request-id'];
    const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
    req.id = id;
    res.setHeader('X-Request-Id', id);
    let child: Logger | undefined;
    Object.defineProperty(req, 'log', {
      configurable: true,
      get: () => (child ??= logger.child({ reqId: id })),
    });
    // 'close' comes for every response, also when the client went away before it was finished.
    res.once('close', () => {
      const status = res.statusCode;
      const responseTime = Number(process.hrtime.bigint() - started) / 1e6;
      const line = { reqId: id, method: req.method, url: redactUrl(req.originalUrl), status, responseTime: Math.round(responseTime * 10) / 10 };
      if (!res.writableFinished) access.warn(line, 'request aborted');
      else if (status >= 500) access.error(line, 'request failed');
      else access.info(line, 'request completed');
    });
    next();
  };
}
