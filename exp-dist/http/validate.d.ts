import type { RequestHandler } from 'express';
import type { ZodType, z } from 'zod';
/** Flattens zod issues into the contract's `{ field: message }` map; unknown keys are named one by one. */
export declare function fieldErrors(error: z.ZodError): Record<string, string>;
/** Parses a value with a schema, throwing the contract's 400 on failure. */
export declare function parseOrThrow<S extends ZodType>(schema: S, value: unknown): z.output<S>;
export interface RequestSchemas {
    body?: ZodType;
    query?: ZodType;
    params?: ZodType;
}
/**
 * Replaces req.body / req.query / req.params with their parsed, typed form, so only validated data
 * reaches a handler. (Express 5 exposes req.query as a getter, hence defineProperty.)
 */
export declare function validate(schemas: RequestSchemas): RequestHandler;
