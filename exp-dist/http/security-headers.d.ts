import type { RequestHandler } from 'express';
/**
 * Exactly the headers of SPEC 5: helmet's other defaults are switched off so the set stays the one the
 * contract promises. HSTS only in production, where the service sits behind TLS.
 */
export declare function securityHeaders(isProduction: boolean): RequestHandler[];
