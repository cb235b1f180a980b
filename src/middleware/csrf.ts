import crypto from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import { AppError } from '../http/app-error';
import { API_KEY_HEADER, AUTH_COOKIE } from '../sessions/request-token';
import type { TokenService } from '../sessions/token.service';
import { subKey } from '../credentials/sub-keys';

export const CSRF_COOKIE = 'csrf_token';
export const CSRF_HEADER = 'X-CSRF-Token';
export const CSRF_FIELD = '_csrf';
export const CSRF_MESSAGE = 'Invalid CSRF token';
/** The usual cause in a browser: the form's page predates a sign-in that issued a new token (in any tab). */
const CSRF_PAGE_HINT =
  'This form was opened before you signed in again (here or in another tab), so it was not sent. Reload the page, then submit it again.';

const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);
const NONCE_BYTES = 18;

/**
 * CONTRACT 5 exemptions: routes a signed-out browser must be able to post (sign-in, sign-up, one-time
 * credentials) and refresh (which needs the token it renews, not a form). Matched on the lower-cased
 * path without trailing slashes, as Express's (case-insensitive, non-strict) routing matches it.
 */
const EXEMPT_PATHS: ReadonlySet<string> = new Set([
  '/auth/login',
  '/auth/register',
  '/auth/seed-admin',
  '/auth/request-password-reset',
  '/auth/reset-password',
  '/auth/sign-in/magic-link',
  '/auth/refresh',
  // The second step of a sign-in: a signed-out page posts it, with the challenge its HttpOnly cookie carries.
  '/auth/2fa/verify',
]);
// Passkey sign-in is sign-in: JSON only (a cross-site form cannot send it), as a signed-out page must post it.
const EXEMPT_PREFIXES: readonly string[] = ['/auth/otp/', '/auth/passkeys/login/'];

function isExempt(path: string): boolean {
  const normalized = path.toLowerCase().replace(/\/+$/, '');
  return EXEMPT_PATHS.has(normalized) || EXEMPT_PREFIXES.some((prefix) => normalized.startsWith(prefix));
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && crypto.timingSafeEqual(left, right);
}

/**
 * Signed double-submit CSRF protection (SPEC 5.6, CONTRACT 5). A token is `<nonce>.<mac>`, the mac an
 * HMAC-SHA256 under JWT_SECRET's CSRF sub-key over the nonce and the user id, so a token is worth nothing for
 * another user. It travels in the `csrf_token` cookie (readable by the page) and must come back in the
 * `X-CSRF-Token` header or the `_csrf` form field. A token made under the raw secret (before the sub-keys,
 * issue 44) is accepted only beside an auth cookie issued before them too: the two cookies were set together,
 * so such a pair lives no longer than that auth token, and a browser is never left with a cookie it cannot use.
 */
export function createCsrf(deps: { secret: string; tokens: Pick<TokenService, 'signedSubject'> }) {
  const macKey = subKey(deps.secret, 'csrf');
  const rawMacKey = crypto.createSecretKey(Buffer.from(deps.secret, 'utf8'));

  function mac(key: crypto.KeyObject, nonce: string, userId: string): string {
    return crypto.createHmac('sha256', key).update(`csrf.v1\0${nonce}\0${userId}`).digest('base64url');
  }

  /** A fresh token bound to the user. */
  function issue(userId: string): string {
    const nonce = crypto.randomBytes(NONCE_BYTES).toString('base64url');
    return `${nonce}.${mac(macKey, nonce, userId)}`;
  }

  /** Whether the token was signed by us for this user (constant-time); under the raw secret only when `rawAllowed`. */
  function isValidFor(token: string, userId: string, rawAllowed: boolean): boolean {
    const dot = token.indexOf('.');
    if (dot <= 0 || dot !== token.lastIndexOf('.')) return false;
    const [nonce, given] = [token.slice(0, dot), token.slice(dot + 1)];
    return sameText(given, mac(macKey, nonce, userId)) || (rawAllowed && sameText(given, mac(rawMacKey, nonce, userId)));
  }

  /**
   * Who the request's cookie credential speaks for: the `auth_token` cookie, else the server session of a
   * magic-link sign-in (`auth_session`, loaded before this middleware). Null without either.
   */
  async function cookieCredential(req: Request, cookies: Record<string, unknown>): Promise<{ userId: string; beforeSubKeys: boolean } | null> {
    const authCookie = cookies[AUTH_COOKIE];
    const tokenUser = typeof authCookie === 'string' && authCookie !== '' ? await deps.tokens.signedSubject(authCookie) : null;
    const sessionUser = req.serverSession?.auth?.userId;
    return tokenUser ?? (sessionUser ? { userId: sessionUser, beforeSubKeys: false } : null);
  }

  /** Reads (and removes, so body schemas never see it) the `_csrf` field of a form post. */
  function takeFormToken(req: Request): string | undefined {
    if (!req.is('application/x-www-form-urlencoded')) return undefined;
    const body = req.body as Record<string, unknown> | undefined;
    if (typeof body !== 'object' || body === null || !Object.hasOwn(body, CSRF_FIELD)) return undefined;
    const value = body[CSRF_FIELD];
    delete body[CSRF_FIELD];
    return typeof value === 'string' ? value : undefined;
  }

  /**
   * App-wide middleware (mounted before every router, after the session step). Checks unsafe methods of
   * requests that carry an auth cookie (`auth_token` or `auth_session`) and no Authorization header (a
   * cross-site page can make a browser send cookies, never a header). Also exposes the cookie's token to views as `res.locals.csrfToken` for their forms.
   */
  const protect: RequestHandler = (req, res, next) => {
    const cookies = (req.cookies ?? {}) as Record<string, unknown>;
    const cookieToken = typeof cookies[CSRF_COOKIE] === 'string' ? (cookies[CSRF_COOKIE] as string) : undefined;
    res.locals.csrfToken = cookieToken ?? '';
    const formToken = takeFormToken(req);

    if (SAFE_METHODS.has(req.method)) return next();
    if (req.headers.authorization !== undefined) return next();
    // An API key request (CONTRACT 11) is judged by its key alone, never by a cookie (see api-key-check.ts).
    if (req.headers[API_KEY_HEADER] !== undefined) return next();
    if (isExempt(req.path)) return next();
    cookieCredential(req, cookies).then((credential) => {
      if (credential === null) return next();
      const submitted = req.get(CSRF_HEADER) ?? formToken;
      const valid =
        cookieToken !== undefined &&
        submitted !== undefined &&
        sameText(submitted, cookieToken) &&
        isValidFor(submitted, credential.userId, credential.beforeSubKeys);
      if (!valid) return next(new AppError(403, CSRF_MESSAGE, { hint: CSRF_PAGE_HINT }));
      next();
    }, next);
  };

  return { issue, protect };
}

export type Csrf = ReturnType<typeof createCsrf>;
