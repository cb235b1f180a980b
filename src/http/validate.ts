import type { Request, RequestHandler } from 'express';
import { z, type ZodType } from 'zod';
import { AppError } from './app-error';

/**
 * The one validation vocabulary (CONTRACT 4's profile messages are its model): "is required" only for an
 * absent value (null and '' count as absent), the expected kind for a wrong type, and never zod's own text.
 */
export const VALIDATION_MESSAGES = {
  required: 'is required',
  unknownField: 'unknown field',
  invalid: 'is invalid',
  format: 'format is invalid',
  email: 'must be a valid email address',
  url: 'must be a valid URL',
  types: {
    string: 'must be a string',
    number: 'must be a number',
    int: 'must be a whole number',
    boolean: 'must be true or false',
    object: 'must be an object',
    array: 'must be a list',
    date: 'must be a date',
  } as Record<string, string>,
} as const;

const isAbsent = (value: unknown): boolean => value === undefined || value === null;
const plural = (count: number | bigint, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`;

/** A wrong type or a missing value, judged by the value itself. */
function typeMessage(expected: string, input: unknown): string {
  if (isAbsent(input)) return VALIDATION_MESSAGES.required;
  return VALIDATION_MESSAGES.types[expected] ?? VALIDATION_MESSAGES.invalid;
}

function boundMessage(issue: { origin: string; inclusive?: boolean; input?: unknown }, bound: number | bigint, side: 'least' | 'most'): string {
  if (issue.origin === 'string') {
    return side === 'least' && bound === 1 ? VALIDATION_MESSAGES.required : `must be at ${side} ${plural(bound, 'character')}`;
  }
  if (issue.origin === 'array' || issue.origin === 'set') return `must have at ${side} ${plural(bound, 'item')}`;
  if (issue.inclusive === false) return `must be ${side === 'least' ? 'greater' : 'less'} than ${bound}`;
  return `must be at ${side} ${bound}`;
}

/** The house message of an issue no schema worded itself (a zod error map, set once below). */
export function houseMessage(issue: z.core.$ZodRawIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return typeMessage(issue.expected, issue.input);
    case 'invalid_value':
      return issue.values.length === 1 ? `must be ${String(issue.values[0])}` : `must be one of: ${issue.values.join(', ')}`;
    case 'too_small':
      return boundMessage(issue, issue.minimum, 'least');
    case 'too_big':
      return boundMessage(issue, issue.maximum, 'most');
    case 'invalid_format':
      return issue.format === 'email' ? VALIDATION_MESSAGES.email : issue.format === 'url' ? VALIDATION_MESSAGES.url : VALIDATION_MESSAGES.format;
    case 'not_multiple_of':
      return `must be a multiple of ${issue.divisor}`;
    case 'unrecognized_keys':
      return VALIDATION_MESSAGES.unknownField;
    default:
      return VALIDATION_MESSAGES.invalid;
  }
}

// Once for the process: a schema's own message still wins (it names the rule better), zod's wording never shows.
z.config({ customError: houseMessage });

/** The value at an issue's path in the parsed input (undefined when the path leaves it). */
function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/** An absent value is "is required"; a present one of the wrong type keeps its schema's wording, unless that wording says "required". */
function typeError(issue: { expected: string; message: string }, value: unknown): string {
  if (isAbsent(value) || issue.message === VALIDATION_MESSAGES.required) return typeMessage(issue.expected, value);
  return issue.message;
}

/**
 * Flattens zod issues into the contract's `{ field: message }` map; unknown keys are named one by one.
 * Given the parsed `input`, a wrong type is told from an absent value even where a schema worded its type
 * error itself (`z.string({ message: 'is required' })` would otherwise call 12345678 "required").
 */
export function fieldErrors(error: z.ZodError, input?: unknown): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) errors[[...issue.path, key].join('.')] ??= VALIDATION_MESSAGES.unknownField;
      continue;
    }
    const field = issue.path.length > 0 ? issue.path.join('.') : '_';
    errors[field] ??= issue.code === 'invalid_type' && input !== undefined ? typeError(issue, valueAt(input, issue.path)) : issue.message;
  }
  return errors;
}

/**
 * Parses a value with a schema, throwing the contract's 400 on failure. Asynchronous because a schema may
 * hold an asynchronous rule (a new password's quality is judged on a worker thread).
 */
export async function parseOrThrow<S extends ZodType>(schema: S, value: unknown): Promise<z.output<S>> {
  const result = await schema.safeParseAsync(value);
  if (!result.success) throw AppError.validation(fieldErrors(result.error, value));
  return result.data;
}

/** Bodies a step before validate() already parsed, with the schema that parsed them (see parseBodyEarly). */
const parsedBodies = new WeakMap<object, ZodType>();

/**
 * Parses req.body with its route's body schema ahead of validate() (a step that words its own answer for a
 * refused body). A body it accepts becomes req.body, and validate() takes it as parsed: the schema's
 * asynchronous rules (a new password judged on a worker thread) run once per request.
 */
export async function parseBodyEarly(req: Request, schema: ZodType): Promise<z.ZodSafeParseResult<unknown>> {
  const result = await schema.safeParseAsync(req.body);
  if (result.success && typeof result.data === 'object' && result.data !== null) {
    req.body = result.data;
    parsedBodies.set(result.data, schema);
  }
  return result;
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
  return async (req, _res, next) => {
    if (schemas.params) req.params = (await parseOrThrow(schemas.params, req.params)) as typeof req.params;
    if (schemas.query) {
      Object.defineProperty(req, 'query', { value: await parseOrThrow(schemas.query, req.query), writable: true, configurable: true });
    }
    if (schemas.body && parsedBodies.get(req.body) !== schemas.body) req.body = await parseOrThrow(schemas.body, req.body ?? {});
    next();
  };
}
