import type { RequestHandler } from 'express';
import type { ZodType, z } from 'zod';
import { AppError } from './app-error';

/** Flattens zod issues into the contract's `{ field: message }` map; unknown keys are named one by one. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) errors[[...issue.path, key].join('.')] ??= 'unknown field';
      continue;
    }
    const field = issue.path.length > 0 ? issue.path.join('.') : '_';
    errors[field] ??= issue.message;
  }
  return errors;
}

/** Parses a value with a schema, throwing the contract's 400 on failure. */
export function parseOrThrow<S extends ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw AppError.validation(fieldErrors(result.error));
  return result.data;
}

export interface RequestSchemas {
  body?: ZodType;
  query?: ZodType;
  params?: ZodType;
}

/**
 * Replaces req.body / req.query / req.params with their parsed, typed form, so only validated data
 * reaches a handler. (Express 5 exposes req.query as a getter, hence defineProperty.)
 */
export function validate(schemas: RequestSchemas): RequestHandler {
  return (req, _res, next) => {
    if (schemas.params) req.params = parseOrThrow(schemas.params, req.params) as typeof req.params;
    if (schemas.query) {
      Object.defineProperty(req, 'query', { value: parseOrThrow(schemas.query, req.query), writable: true, configurable: true });
    }
    if (schemas.body) req.body = parseOrThrow(schemas.body, req.body ?? {});
    next();
  };
}
