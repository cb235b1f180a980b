import { type RequestHandler } from 'express';
import type { ZodType } from 'zod';
type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
export interface ResponseDoc {
    description: string;
    schema?: ZodType;
}
/** One endpoint: its schemas validate the request and describe it in the OpenAPI document. */
export interface Endpoint {
    summary: string;
    description?: string;
    tags?: string[];
    body?: ZodType;
    query?: ZodType;
    params?: ZodType;
    responses: Record<number, string | ResponseDoc>;
    /** The endpoint needs a signed-in user (Bearer token or the auth cookie). */
    auth?: boolean;
    /** The endpoint also serves an HTML form, so urlencoded bodies are accepted as well as JSON. */
    form?: boolean;
}
/** Collects every endpoint's description; one per app, rendered at /api/openapi.json. */
export declare class ApiDocs {
    private readonly info;
    private readonly registry;
    private document?;
    constructor(info: {
        title: string;
        version: string;
        description?: string;
    });
    add(method: Method, path: string, endpoint: Endpoint): void;
    toJSON(): object;
}
/**
 * A Router whose endpoints are documented and validated from the same description:
 * `api.post('/login', loginEndpoint, limit.login, handler)`.
 */
export declare function createApiRouter(docs: ApiDocs, mountPath: string): {
    router: import("express-serve-static-core").Router;
    get: (path: string, endpoint: Endpoint, ...handlers: RequestHandler[]) => void;
    post: (path: string, endpoint: Endpoint, ...handlers: RequestHandler[]) => void;
    put: (path: string, endpoint: Endpoint, ...handlers: RequestHandler[]) => void;
    patch: (path: string, endpoint: Endpoint, ...handlers: RequestHandler[]) => void;
    delete: (path: string, endpoint: Endpoint, ...handlers: RequestHandler[]) => void;
};
export type ApiRouter = ReturnType<typeof createApiRouter>;
export {};
