import type { RequestHandler } from 'express';
import type { PasswordLogin } from './password-login';
import { DEVICE_COOKIE } from './device-cookies';

/**
 * The password sign-in route's first look at the hashing queue (issue 51), put right after the per-IP limit and
 * validation and before anything that reads (the SSO enforcement's domain lookup, the account): under a
 * credential-stuffing flood the open lane is full, and an unknown browser's guess is refused with 429 and
 * Retry-After for the cost of parsing it. A profile of the flood showed why it must come first: the refused
 * guesses' one read each kept SQLite's single connection busy, and a known browser's reads and session write
 * queued behind them for seconds. With normal traffic the queue takes everything, and the route behaves as before.
 */
export function createPasswordAdmission(login: Pick<PasswordLogin, 'refusal'>): RequestHandler {
  return (req, _res, next) => {
    const email = (req.body as { email?: unknown } | undefined)?.email;
    if (typeof email !== 'string') return next();
    next(login.refusal(email, (req.cookies as Record<string, string> | undefined)?.[DEVICE_COOKIE]) ?? undefined);
  };
}
