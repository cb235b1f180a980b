"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.securityHeaders = securityHeaders;
const helmet_1 = __importDefault(require("helmet"));
const PERMISSIONS_POLICY = 'camera=(), microphone=(), geolocation=()';
/**
 * Exactly the headers of SPEC 5: helmet's other defaults are switched off so the set stays the one the
 * contract promises. HSTS only in production, where the service sits behind TLS.
 */
function securityHeaders(isProduction) {
    return [
        (0, helmet_1.default)({
            contentSecurityPolicy: false,
            crossOriginEmbedderPolicy: false,
            crossOriginOpenerPolicy: false,
            crossOriginResourcePolicy: false,
            originAgentCluster: false,
            dnsPrefetchControl: false,
            ieNoOpen: false,
            permittedCrossDomainPolicies: false,
            xssFilter: false,
            xPoweredBy: true,
            noSniff: true,
            frameguard: { action: 'sameorigin' },
            referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
            strictTransportSecurity: isProduction ? { maxAge: 31536000, includeSubDomains: true, preload: false } : false,
        }),
        (_req, res, next) => {
            res.setHeader('Permissions-Policy', PERMISSIONS_POLICY);
            next();
        },
    ];
}
//# sourceMappingURL=security-headers.js.map