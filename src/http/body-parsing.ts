import express, { type RequestHandler } from 'express';
import { AppError } from './app-error';

const BODY_LIMIT = '100kb';

const parseJson = express.json({ limit: BODY_LIMIT, strict: true });
const parseForm = express.urlencoded({ limit: BODY_LIMIT, extended: false, parameterLimit: 200 });

/**
 * JSON and urlencoded form bodies up to 100 kB. Any other body type is a 415 here; a request without a
 * body needs no content type. Whether a form is welcome is decided per endpoint (see api-router).
 */
export function bodyParsing(): RequestHandler {
  return (req, res, next) => {
    // Most requests (GET, HEAD) carry no body: skip the parsers' own checks entirely.
    if (!hasBody(req)) return next();
    if (!req.is(['application/json', 'application/x-www-form-urlencoded'])) {
      next(new AppError(415, 'Content-Type must be application/json'));
      return;
    }
    const parse = req.is('application/json') ? parseJson : parseForm;
    parse(req, res, next);
  };
}

function hasBody(req: Parameters<RequestHandler>[0]): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}
