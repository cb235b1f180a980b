"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.AUTH_COOKIE = void 0;
exports.extractToken = extractToken;
exports.AUTH_COOKIE = 'auth_token';
/** The access token of a request: the Bearer header wins over the cookie; never the query string. */
function extractToken(req) {
    const header = req.headers.authorization;
    if (typeof header === 'string') {
        const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
        return match ? match[1] : null;
    }
    const cookie = req.cookies?.[exports.AUTH_COOKIE];
    return typeof cookie === 'string' && cookie.length > 0 ? cookie : null;
}
//# sourceMappingURL=credentials.js.map