import helmet from 'helmet';
import type { RequestHandler } from 'express';

const PERMISSIONS_POLICY = 'camera=(), microphone=(), geolocation=()';

/**
 * Exactly the headers of SPEC 5: helmet's other defaults are switched off so the set stays the one the
 * contract promises. HSTS only in production, where the service sits behind TLS.
 */
export function securityHeaders(isProduction: boolean): RequestHandler[] {
  return [
    helmet({
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
