"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.CSRF_MESSAGE = exports.CSRF_FIELD = exports.CSRF_HEADER = exports.CSRF_COOKIE = void 0;
exports.createCsrf = createCsrf;
const node_crypto_1 = __importDefault(require("node:crypto"));
const jsonwebtoken_1 = __importDefault(require("jsonwebtoken"));
const app_error_1 = require("../http/app-error");
const credentials_1 = require("../auth/credentials");
exports.CSRF_COOKIE = 'csrf_token';
exports.CSRF_HEADER = 'X-CSRF-Token';
exports.CSRF_FIELD = '_csrf';
exports.CSRF_MESSAGE = 'Invalid CSRF token';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);
const NONCE_BYTES = 18;
/**
 * CONTRACT 5 exemptions: routes a signed-out browser must be able to post (sign-in, sign-up, one-time
 * credentials) and refresh (which needs the token it renews, not a form). Matched on the lower-cased
 * path without trailing slashes, as Express's (case-insensitive, non-strict) routing matches it.
 */
const EXEMPT_PATHS = new Set([
    '/auth/login',
    '/auth/register',
    '/auth/seed-admin',
    '/auth/request-password-reset',
    '/auth/reset-password',
    '/auth/sign-in/magic-link',
    '/auth/refresh',
]);
const EXEMPT_PREFIXES = ['/auth/otp/'];
function isExempt(path) {
    const normalized = path.toLowerCase().replace(/\/+$/, '');
    return EXEMPT_PATHS.has(normalized) || EXEMPT_PREFIXES.some((prefix) => normalized.startsWith(prefix));
}
function sameText(a, b) {
    const left = Buffer.from(a);
    const right = Buffer.from(b);
    return left.length === right.length && node_crypto_1.default.timingSafeEqual(left, right);
}
/**
 * Signed double-submit CSRF protection (SPEC 5.6, CONTRACT 5). A token is `<nonce>.<mac>`, the mac an
 * HMAC-SHA256 under JWT_SECRET over the nonce and the user id, so a token is worth nothing for another
 * user. It travels in the `csrf_token` cookie (readable by the page) and must come back in the
 * `X-CSRF-Token` header or the `_csrf` form field.
 */
function createCsrf(deps) {
    const macKey = node_crypto_1.default.createSecretKey(Buffer.from(deps.secret, 'utf8'));
    function mac(nonce, userId) {
        return node_crypto_1.default.createHmac('sha256', macKey).update(`csrf.v1\0${nonce}\0${userId}`).digest('base64url');
    }
    /** A fresh token bound to the user. */
    function issue(userId) {
        const nonce = node_crypto_1.default.randomBytes(NONCE_BYTES).toString('base64url');
        return `${nonce}.${mac(nonce, userId)}`;
    }
    /** Whether the token was signed by us for this user (constant-time). */
    function isValidFor(token, userId) {
        const dot = token.indexOf('.');
        if (dot <= 0 || dot !== token.lastIndexOf('.'))
            return false;
        return sameText(token.slice(dot + 1), mac(token.slice(0, dot), userId));
    }
    /**
     * The user an auth cookie speaks for: its signature is checked (expiry is not, an expired cookie still
     * acts on logout). A cookie that is not ours authenticates nobody, so there is nothing to forge.
     */
    function cookieUserId(cookie) {
        try {
            const payload = jsonwebtoken_1.default.verify(cookie, deps.tokens.signingKey, { algorithms: [deps.tokens.algorithm], ignoreExpiration: true });
            return typeof payload === 'object' && typeof payload.sub === 'string' ? payload.sub : null;
        }
        catch {
            return null;
        }
    }
    /** Reads (and removes, so body schemas never see it) the `_csrf` field of a form post. */
    function takeFormToken(req) {
        if (!req.is('application/x-www-form-urlencoded'))
            return undefined;
        const body = req.body;
        if (typeof body !== 'object' || body === null || !Object.hasOwn(body, exports.CSRF_FIELD))
            return undefined;
        const value = body[exports.CSRF_FIELD];
        delete body[exports.CSRF_FIELD];
        return typeof value === 'string' ? value : undefined;
    }
    /**
     * App-wide middleware (mounted before every router). Checks unsafe methods of requests that carry the
     * auth cookie and no Authorization header (a cross-site page can make a browser send cookies, never a
     * header). Also exposes the cookie's token to views as `res.locals.csrfToken` for their forms.
     */
    const protect = (req, res, next) => {
        const cookies = (req.cookies ?? {});
        const cookieToken = typeof cookies[exports.CSRF_COOKIE] === 'string' ? cookies[exports.CSRF_COOKIE] : undefined;
        res.locals.csrfToken = cookieToken ?? '';
        const formToken = takeFormToken(req);
        if (SAFE_METHODS.has(req.method))
            return next();
        if (req.headers.authorization !== undefined)
            return next();
        const authCookie = cookies[credentials_1.AUTH_COOKIE];
        if (typeof authCookie !== 'string' || authCookie === '')
            return next();
        if (isExempt(req.path))
            return next();
        const userId = cookieUserId(authCookie);
        if (userId === null)
            return next();
        const submitted = req.get(exports.CSRF_HEADER) ?? formToken;
        const valid = cookieToken !== undefined &&
            submitted !== undefined &&
            sameText(submitted, cookieToken) &&
            isValidFor(submitted, userId);
        if (!valid)
            return next(new app_error_1.AppError(403, exports.CSRF_MESSAGE));
        next();
    };
    return { issue, isValidFor, protect };
}
//# sourceMappingURL=csrf.js.map