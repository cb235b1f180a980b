import type { Request } from 'express';
export declare const AUTH_COOKIE = "auth_token";
/** The access token of a request: the Bearer header wins over the cookie; never the query string. */
export declare function extractToken(req: Request): string | null;
