import type { CookieOptions, Response } from 'express';
import { noStore } from '../http/no-store';
import { AUTH_COOKIE } from '../sessions/request-token';
import { CSRF_COOKIE, type Csrf } from '../middleware/csrf';
import type { IssuedToken } from '../sessions/token.service';
import { DEVICE_COOKIE, DEVICE_COOKIE_MAX_AGE_SECONDS, DEVICE_COOKIE_PATH } from './device-cookies';

/**
 * The session cookies of CONTRACT 3: `auth_token` (HttpOnly) and `csrf_token` (readable by the page),
 * both SameSite=Strict (Lax only where a cross-site redirect must carry them), Path=/, Max-Age equal to
 * the token lifetime, Secure in production.
 */
export function createAuthCookies(deps: { secure: boolean; csrf: Pick<Csrf, 'issue'> }) {
  const { secure, csrf } = deps;

  function options(httpOnly: boolean, sameSite: 'strict' | 'lax', maxAgeSeconds?: number): CookieOptions {
    return { httpOnly, secure, sameSite, path: '/', ...(maxAgeSeconds === undefined ? {} : { maxAge: maxAgeSeconds * 1000 }) };
  }

  /** Sets both cookies for a freshly issued token; the CSRF token is bound to the token's user. */
  function set(res: Response, issued: IssuedToken, sameSite: 'strict' | 'lax' = 'strict'): void {
    noStore(res);
    res.cookie(AUTH_COOKIE, issued.token, options(true, sameSite, issued.expiresIn));
    res.cookie(CSRF_COOKIE, csrf.issue(issued.claims.sub), options(false, sameSite, issued.expiresIn));
  }

  /** Removes both cookies (sign-out). */
  function clear(res: Response): void {
    noStore(res);
    res.clearCookie(AUTH_COOKIE, options(true, 'strict'));
    res.clearCookie(CSRF_COOKIE, options(false, 'strict'));
  }

  /** Gives the browser its device cookie (HttpOnly, sent to the sign-in routes only; it outlives sign-out on purpose). */
  function device(res: Response, value: string): void {
    res.cookie(DEVICE_COOKIE, value, { httpOnly: true, secure, sameSite: 'strict', path: DEVICE_COOKIE_PATH, maxAge: DEVICE_COOKIE_MAX_AGE_SECONDS * 1000 });
  }

  return { set, clear, device };
}

export type AuthCookies = ReturnType<typeof createAuthCookies>;
