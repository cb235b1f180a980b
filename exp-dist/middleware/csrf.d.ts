import type { RequestHandler } from 'express';
import type { TokenService } from '../auth/token.service';
export declare const CSRF_COOKIE = "csrf_token";
export declare const CSRF_HEADER = "X-CSRF-Token";
export declare const CSRF_FIELD = "_csrf";
export declare const CSRF_MESSAGE = "Invalid CSRF token";
/**
 * Signed double-submit CSRF protection (SPEC 5.6, CONTRACT 5). A token is `<nonce>.<mac>`, the mac an
 * HMAC-SHA256 under JWT_SECRET over the nonce and the user id, so a token is worth nothing for another
 * user. It travels in the `csrf_token` cookie (readable by the page) and must come back in the
 * `X-CSRF-Token` header or the `_csrf` form field.
 */
export declare function createCsrf(deps: {
    secret: string;
    tokens: Pick<TokenService, 'signingKey' | 'algorithm'>;
}): {
    issue: (userId: string) => string;
    isValidFor: (token: string, userId: string) => boolean;
    protect: RequestHandler<import("express-serve-static-core").ParamsDictionary, any, any, import("qs").ParsedQs, Record<string, any>>;
};
export type Csrf = ReturnType<typeof createCsrf>;
