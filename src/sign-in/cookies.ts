import type { CookieOptions, Response } from 'express';
import { noStore } from '../http/no-store';
import { AUTH_COOKIE } from '../sessions/request-token';
import { CSRF_COOKIE, type Csrf } from '../middleware/csrf';
import type { IssuedToken } from '../sessions/token.service';

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

  return { set, clear };
}

export type AuthCookies = ReturnType<typeof createAuthCookies>;
