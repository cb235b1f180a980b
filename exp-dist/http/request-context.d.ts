import type { Request } from 'express';
/** What services may know about the request that caused them: who asked from where, never req itself. */
export interface RequestContext {
    ip: string | null;
    userAgent: string | null;
}
export declare function requestContext(req: Request): RequestContext;
