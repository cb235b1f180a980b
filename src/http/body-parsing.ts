import express, { type RequestHandler } from 'express';
import { AppError } from './app-error';

const BODY_LIMIT = '100kb';

const parseJson = express.json({ limit: BODY_LIMIT, strict: true });
const parseForm = express.urlencoded({ limit: BODY_LIMIT, extended: false, parameterLimit: 200 });

const NUL_MESSAGE = 'Request contains a NUL character';
const NO_BODY: Record<string, never> = Object.freeze({});

/**
 * Whether a parsed body holds U+0000 in any string or key. No field of this service may contain one,
 * and SQLite cuts a statement at it (a 500 from deep inside a query). Iterative: a 100 kB body can nest
 * tens of thousands of levels.
 */
export function containsNul(body: unknown): boolean {
  const pending: unknown[] = [body];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return true;
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, item] of Object.entries(value)) {
        if (key.includes('\u0000')) return true;
        pending.push(item);
      }
    }
  }
  return false;
}

/** A path as Express routes it (case-insensitive, a trailing slash ignored), to match streamed routes however spelled. */
const routedPath = (path: string): string => path.toLowerCase().replace(/(.)\/+$/, '$1');

/**
 * JSON and urlencoded form bodies up to 100 kB. Any other body type is a 415 here; a request without a
 * body needs no content type. Whether a form is welcome is decided per endpoint (see api-router). A NUL
 * in the URL (path or query, `%00`) or anywhere in the body is a 400 before any route sees it.
 * POSTs to the `streamed` paths (the user import, CONTRACT 17) are left unread: their handler reads the body as a
 * stream, with its own limit and content types, so a 50 MB upload is never held in memory.
 */
export function bodyParsing(options: { streamed?: readonly string[] } = {}): RequestHandler {
  const streamed = new Set((options.streamed ?? []).map(routedPath));
  return (req, res, next) => {
    if (/%00/.test(req.url)) return next(AppError.badRequest(NUL_MESSAGE));
    if (req.method === 'POST' && streamed.has(routedPath(req.path))) {
      req.body = NO_BODY;
      return next();
    }
    // Most requests (GET, HEAD) carry no body: skip the parsers' own checks entirely. Express 5 would
    // leave req.body undefined; every handler (form pages read fields without a schema) gets an object,
    // here one shared frozen empty one (nothing writes into a body it did not parse).
    if (!hasBody(req)) {
      req.body = NO_BODY;
      return next();
    }
    if (!req.is(['application/json', 'application/x-www-form-urlencoded'])) {
      next(new AppError(415, 'Content-Type must be application/json'));
      return;
    }
    const parse = req.is('application/json') ? parseJson : parseForm;
    parse(req, res, (err?: unknown) => {
      if (err) return next(err);
      next(containsNul(req.body) ? AppError.badRequest(NUL_MESSAGE) : undefined);
    });
  };
}

function hasBody(req: Parameters<RequestHandler>[0]): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}
