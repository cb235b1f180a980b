import type { ErrorRequestHandler, RequestHandler } from 'express';
import { BaseError as SequelizeError, ConnectionError, TimeoutError } from 'sequelize';
import { AppError } from './app-error';
import { StoreUnavailableError } from '../store/key-value-store';
import { isContention } from '../db/transaction-retry';
import { isBrowserRequest } from './negotiation';
import type { DatabaseErrorKind } from '../metrics/metrics';

interface BodyParserError {
  type?: string;
  status?: number;
  expose?: boolean;
}

/** Which database failure a 503 stands for (the metrics' kind), or null for any other error. */
function databaseFailure(err: unknown): DatabaseErrorKind | null {
  if (isDatabaseUnavailable(err)) return 'unavailable';
  return isContention(err) ? 'contention' : null;
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
  // The router could not percent-decode a path parameter (`/api/users/%E0%A4%A`): the client's mistake.
  if (err instanceof URIError && parserError.status === 400) return AppError.badRequest('Malformed URL encoding');
  // Any other client error of the body reader (a gzip/deflate/br body that does not inflate, a length
  // that does not match, an aborted upload) is a 400 with a fixed message; the library's text stays internal.
  if (parserError?.expose === true && typeof parserError.status === 'number' && parserError.status >= 400 && parserError.status < 500) {
    return new AppError(parserError.status, parserError.status === 400 ? 'Request body could not be read' : 'Request body refused');
  }
  // Contention that outlasted the retries is the database being busy, not a fault of the request: try again.
  if (isDatabaseUnavailable(err) || isContention(err) || err instanceof StoreUnavailableError) return AppError.serviceUnavailable();
  return undefined;
}

/** Socket-level error codes under a query: the link to the database broke, not the query. */
const LINK_ERROR_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND',
  'PROTOCOL_CONNECTION_LOST', 'PROTOCOL_SEQUENCE_TIMEOUT', 'ER_CON_COUNT_ERROR', 'ER_SERVER_SHUTDOWN',
  'SQLITE_BUSY', 'SQLITE_CANTOPEN',
]);

/**
 * Connection-level failures mean the database is unreachable, which is the client's 503, not a 500:
 * Sequelize's connection and timeout errors (no connection could be had), and a query error whose
 * driver error is a broken link (a socket code, or mysql2's `fatal` flag: the connection is dead).
 */
function isDatabaseUnavailable(err: unknown): boolean {
  if (err instanceof ConnectionError || err instanceof TimeoutError) return true;
  if (!(err instanceof SequelizeError)) return false;
  const parent = (err as { parent?: { code?: string; fatal?: boolean } }).parent;
  return parent?.fatal === true || (parent?.code !== undefined && LINK_ERROR_CODES.has(parent.code));
}

export const notFoundHandler: RequestHandler = (_req, _res, next) => {
  next(AppError.notFound());
};

/**
 * The one error handler: known errors become their public answer, unknown ones a bare 500. A request
 * failed by the database is counted (`onDatabaseError`: the app's metrics); store failures are counted
 * by the store itself.
 */
export function createErrorHandler(onDatabaseError?: (kind: DatabaseErrorKind) => void): ErrorRequestHandler {
  return (err, req, res, next) => {
    if (onDatabaseError) {
      const kind = databaseFailure(err);
      if (kind) onDatabaseError(kind);
    }
    handleError(err, req, res, next);
  };
}

const handleError: ErrorRequestHandler = (err, req, res, _next) => {
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
    res.render('error', { title: status === 404 ? 'Not found' : 'Error', status, message, hint: known?.options.hint ?? null });
    return;
  }
  res.json({ error: message, ...(known?.options.errors ? { errors: known.options.errors } : {}), ...(known?.options.body ?? {}) });
};

/** The error handler without metrics (tests that build a bare app). */
export const errorHandler: ErrorRequestHandler = createErrorHandler();
