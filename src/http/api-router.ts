import { Router, type Request, type RequestHandler } from 'express';
import { z, type ZodType } from 'zod';
import { OpenAPIRegistry, OpenApiGeneratorV31, type ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { AppError } from './app-error';
import { validate } from './validate';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

interface ResponseDoc {
  description: string;
  schema?: ZodType;
  /** The media type of a body that is not one JSON document (a stream of NDJSON lines, each one `schema`). */
  contentType?: string;
}

/** One endpoint: its schemas validate the request and describe it in the OpenAPI document. */
export interface Endpoint {
  summary: string;
  description?: string;
  tags?: string[];
  body?: ZodType;
  /**
   * A body the handler reads as a stream (bodyParsing leaves it unread): documented per media type, checked by the
   * handler record by record, never by validate().
   */
  streamedBody?: { limit: string; contentTypes: Record<string, ZodType> };
  query?: ZodType;
  params?: ZodType;
  responses: Record<number, string | ResponseDoc>;
  /**
   * The endpoint needs a signed-in user (Bearer token, the auth_token cookie or a magic-link auth_session);
   * `'optional'`: it reads one when present (logout), so it never answers 401 for its absence.
   */
  auth?: boolean | 'optional';
  /** The endpoint also serves an HTML form, so urlencoded bodies are accepted as well as JSON. */
  form?: boolean;
  /** Overrides the operationId derived from method and path (see operationIdOf). */
  operationId?: string;
  /**
   * An API key may act here (CONTRACT 11), within its own permissions. Keys are refused (403) wherever this
   * is not said, pages included, so a new route is closed to keys until its description opens it.
   */
  apiKey?: true;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** The route whose description lets an API key act (see markKeyUsable); declared in http-server.ts. */
      keyUsableRoute?: unknown;
    }
  }
}

/**
 * Put first in a key-usable endpoint's chain. It names the route object rather than setting a flag, so a
 * request that a marked route passes on (next()) to a later, unmarked handler is not let through by it.
 */
const markKeyUsable: RequestHandler = (req, _res, next) => {
  req.keyUsableRoute = req.route;
  next();
};

/** Whether the route now serving the request lets an API key act (its endpoint says `apiKey: true`). */
export function keyUsable(req: Request): boolean {
  return req.route !== undefined && req.keyUsableRoute === req.route;
}

/** package.json says UNLICENSED; OpenAPI 3.1 wants a URL or SPDX id, so the URL is npm's meaning of the word. */
const LICENSE = { name: 'UNLICENSED', url: 'https://docs.npmjs.com/cli/configuring-npm/package-json#license' };

/** The error body of CONTRACT 2, shared by every failure the document names. */
// `id` makes each a component, referenced from every answer that uses it.
const errorBody = z.object({ error: z.string() }).meta({ id: 'Error', description: 'An error: `{ error }`, sometimes with details of that error beside it' });
/** The validation failure of CONTRACT 2: every refused field named with its message. */
const validationErrorBody = z
  .object({ error: z.string(), errors: z.record(z.string(), z.string()) })
  .meta({ id: 'ValidationError', description: 'Validation failed: `{ error: "Validation failed", errors: { field: message } }`' });

/**
 * Answers every endpoint of a kind can give, whether or not its own description names them: a NUL in the
 * URL (any route), the validation failure, the missing credential, the CSRF refusal of a
 * cookie-authenticated change (CONTRACT 5) and the body limits (CONTRACT 2). An endpoint's own wording of
 * one of them wins.
 */
function impliedResponses(method: Method, endpoint: Endpoint): Record<number, string> {
  const implied: Record<number, string> = { 400: 'a NUL character in the URL or the body' };
  if (endpoint.params || endpoint.query || endpoint.body) implied[400] = 'validation failed: `{ error, errors: { field: message } }`';
  if (endpoint.auth === true) implied[401] = 'Authentication required';
  const refusals = [
    ...(endpoint.auth && method !== 'get' ? ['Invalid CSRF token (authenticated by cookie without the X-CSRF-Token header or _csrf field)'] : []),
    ...(endpoint.auth && !endpoint.apiKey ? ['Not allowed with an API key (this operation takes none)'] : []),
  ];
  if (refusals.length > 0) implied[403] = refusals.join('; ');
  if (endpoint.body) {
    implied[413] = 'body larger than 100 kB';
    implied[415] = endpoint.form ? 'body neither JSON nor urlencoded' : 'Content-Type must be application/json';
  }
  if (endpoint.streamedBody) {
    implied[413] = `body larger than ${endpoint.streamedBody.limit}`;
    implied[415] = `Content-Type must be one of ${Object.keys(endpoint.streamedBody.contentTypes).join(', ')}`;
  }
  return implied;
}

const SIGNED_IN: Array<Record<string, string[]>> = [{ bearerAuth: [] }, { cookieAuth: [] }, { sessionAuth: [] }];
/** Only key-usable operations name the API key scheme: a client reading the document meets no key where one is refused. */
const securityOf = (endpoint: Endpoint) => (endpoint.apiKey ? [...SIGNED_IN, { apiKeyAuth: [] }] : SIGNED_IN);

/** `GET /api/users/{id}` → `getApiUsersById`: unique per operation, stable while the route stays. */
export function operationIdOf(method: Method, path: string): string {
  const words = path
    .split('/')
    .filter(Boolean)
    .map((segment) => segment.replace(/^\{(.+)\}$/, 'by-$1'))
    .flatMap((segment) => segment.split(/[^A-Za-z0-9]+/))
    .filter(Boolean);
  return method + words.map((word) => word[0].toUpperCase() + word.slice(1)).join('');
}

/** One answer of an operation: errors carry the shared error schemas, redirects their Location. */
function responseOf(status: number, doc: string | ResponseDoc, validates: boolean, where: string): ResponseConfig {
  const { description, schema, contentType = 'application/json' } = typeof doc === 'string' ? { description: doc, schema: undefined } : doc;
  if (schema) return { description, content: { [contentType]: { schema } } };
  if (status >= 300 && status < 400) return { description, headers: { Location: { description: 'where the browser goes next', schema: { type: 'string' } } } };
  if (status === 204) return { description };
  if (status < 400) throw new Error(`${where} answers ${status} without a body schema`);
  const body = status === 400 && validates ? z.union([validationErrorBody, errorBody]) : errorBody;
  return { description, content: { 'application/json': { schema: body } } };
}

/**
 * zod-to-openapi writes a regex as `RegExp#toString()` less its slashes, so a flag leaks into the pattern
 * (`^[\p{L}]+$/u` matches nothing). JSON Schema patterns are read as Unicode regexes already, so `u`/`v`
 * are dropped; a flag that changes what matches (`i`, `m`, `s`) cannot be said in a pattern and stops
 * the build rather than document a rule the server does not apply.
 */
function cleanPatterns(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(cleanPatterns);
  if (typeof node !== 'object' || node === null) return;
  const record = node as Record<string, unknown>;
  for (const [key, value] of Object.entries(record)) {
    if (key === 'pattern' && typeof value === 'string') {
      const flagged = /^(.*[^\\])\/([a-z]+)$/s.exec(value);
      if (!flagged) continue;
      if (/[^uvgy]/.test(flagged[2])) throw new Error(`pattern ${value}: flags ${flagged[2]} cannot be expressed in OpenAPI`);
      record[key] = flagged[1];
    } else cleanPatterns(value);
  }
}

/** Collects every endpoint's description; one per app, rendered at /api/openapi.json. */
export class ApiDocs {
  private readonly registry = new OpenAPIRegistry();
  private document?: object;

  /** `baseUrl` is the public origin (BASE_URL), the document's one server. */
  constructor(private readonly info: { title: string; version: string; description?: string; baseUrl: string }) {
    this.registry.registerComponent('securitySchemes', 'bearerAuth', { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
    this.registry.registerComponent('securitySchemes', 'cookieAuth', { type: 'apiKey', in: 'cookie', name: 'auth_token' });
    this.registry.registerComponent('securitySchemes', 'sessionAuth', { type: 'apiKey', in: 'cookie', name: 'auth_session' });
    // CONTRACT 11: an API key (ak_…) in X-API-Key, or as the Bearer value.
    this.registry.registerComponent('securitySchemes', 'apiKeyAuth', { type: 'apiKey', in: 'header', name: 'X-API-Key' });
  }

  add(method: Method, path: string, endpoint: Endpoint): void {
    this.document = undefined;
    const contentTypes = endpoint.form ? ['application/json', 'application/x-www-form-urlencoded'] : ['application/json'];
    // A router's root ('/health' + '/') is documented without the trailing slash.
    const documentedPath = path.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/(.)\/$/, '$1');
    const where = `${method.toUpperCase()} ${documentedPath}`;
    const validates = Boolean(endpoint.params || endpoint.query || endpoint.body);
    const responses: Record<string, ResponseConfig> = Object.fromEntries(
      Object.entries({ ...impliedResponses(method, endpoint), ...endpoint.responses }).map(([status, doc]) => [
        status,
        responseOf(Number(status), doc, validates, where),
      ]),
    );
    responses.default = { description: 'Internal server error (500), or Service unavailable (503, with Retry-After)', content: { 'application/json': { schema: errorBody } } };
    this.registry.registerPath({
      method,
      path: documentedPath,
      operationId: endpoint.operationId ?? operationIdOf(method, documentedPath),
      summary: endpoint.summary,
      description: endpoint.description,
      tags: endpoint.tags,
      // A public operation says so (`[]`); an optional credential is one alternative among none (`{}`).
      security: endpoint.auth === 'optional' ? [...securityOf(endpoint), {}] : endpoint.auth ? securityOf(endpoint) : [],
      request: {
        // zod-to-openapi only reads object schemas for parameters; endpoints pass z.object for these.
        params: endpoint.params as never,
        query: endpoint.query as never,
        body: endpoint.body
          ? { required: true, content: Object.fromEntries(contentTypes.map((type) => [type, { schema: endpoint.body as ZodType }])) }
          : endpoint.streamedBody
            ? { required: true, content: Object.fromEntries(Object.entries(endpoint.streamedBody.contentTypes).map(([type, schema]) => [type, { schema }])) }
            : undefined,
      },
      responses,
    });
  }

  toJSON(): object {
    if (!this.document) {
      const { baseUrl, ...info } = this.info;
      const document = new OpenApiGeneratorV31(this.registry.definitions).generateDocument({
        openapi: '3.1.0',
        info: { ...info, license: LICENSE },
        servers: [{ url: baseUrl }],
      });
      cleanPatterns(document);
      this.document = document;
    }
    return this.document;
  }
}

/** Urlencoded bodies reach only endpoints that serve an HTML form; everywhere else they are a 415. */
const refuseForms: RequestHandler = (req, _res, next) => {
  if (req.is('application/x-www-form-urlencoded')) {
    next(new AppError(415, 'Content-Type must be application/json'));
    return;
  }
  next();
};

/**
 * Marks the place in a route line where the endpoint's schemas are checked:
 * `api.post('/login', endpoint, limit.login, validated, authenticate('local'), issueSession('auth.login'))`.
 * Without it, validation runs right before the last handler, after the guards and limits (a stranger
 * gets 401, not a schema lesson), so the handler only ever sees parsed input.
 */
export const validated: RequestHandler = (_req, _res, next) => next();

/**
 * A Router whose endpoints are documented and validated from the same description:
 * `api.post('/login', loginEndpoint, limit.login, handler)`.
 */
export function createApiRouter(docs: ApiDocs, mountPath: string) {
  const router = Router();
  const define =
    (method: Method) =>
    (path: string, endpoint: Endpoint, ...handlers: RequestHandler[]) => {
      docs.add(method, mountPath + path, endpoint);
      const validation = endpoint.body || endpoint.query || endpoint.params ? [validate(endpoint)] : [];
      const at = handlers.includes(validated) ? handlers.indexOf(validated) : handlers.length - 1;
      const chain = [...handlers.slice(0, at), ...validation, ...handlers.slice(at).filter((handler) => handler !== validated)];
      const marked = endpoint.apiKey ? [markKeyUsable, ...chain] : chain;
      router[method](path, ...(endpoint.form ? marked : [refuseForms, ...marked]));
    };
  return {
    router,
    get: define('get'),
    post: define('post'),
    put: define('put'),
    patch: define('patch'),
    delete: define('delete'),
  };
}
