"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.noStore = noStore;
exports.createAuthCookies = createAuthCookies;
const credentials_1 = require("./credentials");
const csrf_1 = require("../middleware/csrf");
/** Marks a response that carries or sets a credential as never to be stored by any cache (CONTRACT 2). */
function noStore(res) {
    res.set('Cache-Control', 'no-store');
}
/**
 * The session cookies of CONTRACT 3: `auth_token` (HttpOnly) and `csrf_token` (readable by the page),
 * both SameSite=Strict (Lax only where a cross-site redirect must carry them), Path=/, Max-Age equal to
 * the token lifetime, Secure in production.
 */
function createAuthCookies(deps) {
    const { secure, csrf } = deps;
    function options(httpOnly, sameSite, maxAgeSeconds) {
        return { httpOnly, secure, sameSite, path: '/', ...(maxAgeSeconds === undefined ? {} : { maxAge: maxAgeSeconds * 1000 }) };
    }
    /** Sets both cookies for a freshly issued token; the CSRF token is bound to the token's user. */
    function set(res, issued, sameSite = 'strict') {
        noStore(res);
        res.cookie(credentials_1.AUTH_COOKIE, issued.token, options(true, sameSite, issued.expiresIn));
        res.cookie(csrf_1.CSRF_COOKIE, csrf.issue(issued.claims.sub), options(false, sameSite, issued.expiresIn));
    }
    /** Removes both cookies (sign-out). */
    function clear(res) {
        noStore(res);
        res.clearCookie(credentials_1.AUTH_COOKIE, options(true, 'strict'));
        res.clearCookie(csrf_1.CSRF_COOKIE, options(false, 'strict'));
    }
    return { set, clear };
}
//# sourceMappingURL=cookies.js.map