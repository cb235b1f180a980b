import type { Request } from 'express';
/** A browser request is one whose Accept header prefers HTML over JSON (CONTRACT 2). */
export declare function isBrowserRequest(req: Request): boolean;
