import type { ErrorRequestHandler, RequestHandler } from 'express';
import { BaseError as SequelizeError, ConnectionError, TimeoutError } from 'sequelize';
import { AppError } from './app-error';
import { isBrowserRequest } from './negotiation';

interface BodyParserError {
  type?: string;
  status?: number;
}

/** Translates errors thrown by body parsing and the database into AppErrors; anything else stays unknown. */
function toAppError(err: unknown): AppError | undefined {
  if (err instanceof AppError) return err;
  const parserError = err as BodyParserError;
  switch (parserError?.type) {
    case 'entity.parse.failed':
      return AppError.badRequest('Invalid JSON in request body');
    case 'entity.too.large':
      return new AppError(413, 'Request body too large');
    case 'charset.unsupported':
    case 'encoding.unsupported':
      return new AppError(415, 'Unsupported request body encoding');
    case 'parameters.too.many':
      return new AppError(413, 'Too many form fields');
  }
  if (isDatabaseUnavailable(err)) return AppError.serviceUnavailable();
  return undefined;
}

/** Connection-level failures mean the database is unreachable, which is the client's 503, not a 500. */
function isDatabaseUnavailable(err: unknown): boolean {
  if (err instanceof ConnectionError || err instanceof TimeoutError) return true;
  if (!(err instanceof SequelizeError)) return false;
  const code = (err as { parent?: { code?: string } }).parent?.code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_CANTOPEN' || code === 'PROTOCOL_CONNECTION_LOST' || code === 'ECONNREFUSED';
}

export const notFoundHandler: RequestHandler = (_req, _res, next) => {
  next(AppError.notFound());
};

/** The one error handler: known errors become their public answer, unknown ones a bare 500. */
export const errorHandler: ErrorRequestHandler = (err, req, res, _next) => {
  const known = toAppError(err);
  const status = known?.status ?? 500;
  const message = known?.message ?? 'Internal server error';
  if (!known) req.log?.error({ err }, 'unhandled error');
  else if (status >= 500) req.log?.warn({ err: { message: (err as Error).message, name: (err as Error).name } }, 'request failed');

  if (res.headersSent) {
    res.destroy();
    return;
  }
  for (const [name, value] of Object.entries(known?.options.headers ?? {})) res.setHeader(name, value);
  res.status(status);
  if (isBrowserRequest(req)) {
    res.render('error', { title: status === 404 ? 'Not found' : 'Error', status, message });
    return;
  }
  res.json({ error: message, ...(known?.options.errors ? { errors: known.options.errors } : {}), ...(known?.options.body ?? {}) });
};
