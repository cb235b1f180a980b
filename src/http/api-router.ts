import { Router, type RequestHandler } from 'express';
import type { ZodType } from 'zod';
import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { AppError } from './app-error';
import { validate } from './validate';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

interface ResponseDoc {
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
  /**
   * The endpoint needs a signed-in user (Bearer token, the auth_token cookie or a magic-link auth_session);
   * `'optional'`: it reads one when present (logout), so it never answers 401 for its absence.
   */
  auth?: boolean | 'optional';
  /** The endpoint also serves an HTML form, so urlencoded bodies are accepted as well as JSON. */
  form?: boolean;
}

/**
 * Answers every endpoint of a kind can give, whether or not its own description names them: the
 * validation failure, the missing credential, the CSRF refusal of a cookie-authenticated change (CONTRACT
 * 5) and the body limits (CONTRACT 2). An endpoint's own wording of one of them wins.
 */
function impliedResponses(method: Method, endpoint: Endpoint): Record<number, string> {
  const implied: Record<number, string> = {};
  if (endpoint.params || endpoint.query || endpoint.body) implied[400] = 'validation failed: `{ error, errors: { field: message } }`';
  if (endpoint.auth === true) implied[401] = 'Authentication required';
  if (endpoint.auth && method !== 'get') implied[403] = 'Invalid CSRF token (authenticated by cookie without the X-CSRF-Token header or _csrf field)';
  if (endpoint.body) {
    implied[413] = 'body larger than 100 kB';
    implied[415] = endpoint.form ? 'body neither JSON nor urlencoded' : 'Content-Type must be application/json';
  }
  return implied;
}

/** Collects every endpoint's description; one per app, rendered at /api/openapi.json. */
export class ApiDocs {
  private readonly registry = new OpenAPIRegistry();
  private document?: object;

  constructor(private readonly info: { title: string; version: string; description?: string }) {
    this.registry.registerComponent('securitySchemes', 'bearerAuth', { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
    this.registry.registerComponent('securitySchemes', 'cookieAuth', { type: 'apiKey', in: 'cookie', name: 'auth_token' });
    this.registry.registerComponent('securitySchemes', 'sessionAuth', { type: 'apiKey', in: 'cookie', name: 'auth_session' });
  }

  add(method: Method, path: string, endpoint: Endpoint): void {
    this.document = undefined;
    const contentTypes = endpoint.form ? ['application/json', 'application/x-www-form-urlencoded'] : ['application/json'];
    this.registry.registerPath({
      method,
      // A router's root ('/health' + '/') is documented without the trailing slash.
      path: path.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/(.)\/$/, '$1'),
      summary: endpoint.summary,
      description: endpoint.description,
      tags: endpoint.tags,
      security: endpoint.auth ? [{ bearerAuth: [] }, { cookieAuth: [] }, { sessionAuth: [] }] : undefined,
      request: {
        // zod-to-openapi only reads object schemas for parameters; endpoints pass z.object for these.
        params: endpoint.params as never,
        query: endpoint.query as never,
        body: endpoint.body
          ? { required: true, content: Object.fromEntries(contentTypes.map((type) => [type, { schema: endpoint.body as ZodType }])) }
          : undefined,
      },
      responses: Object.fromEntries(
        Object.entries({ ...impliedResponses(method, endpoint), ...endpoint.responses }).map(([status, doc]) => {
          const { description, schema } = typeof doc === 'string' ? { description: doc, schema: undefined } : doc;
          return [status, schema ? { description, content: { 'application/json': { schema } } } : { description }];
        }),
      ),
    });
  }

  toJSON(): object {
    this.document ??= new OpenApiGeneratorV31(this.registry.definitions).generateDocument({ openapi: '3.1.0', info: this.info });
    return this.document;
  }
}

/** Urlencoded bodies reach only endpoints that serve an HTML form; everywhere else they are a 415. */
function formGuard(acceptsForm: boolean): RequestHandler {
  return (req, _res, next) => {
    if (!acceptsForm && req.is('application/x-www-form-urlencoded')) {
      next(new AppError(415, 'Content-Type must be application/json'));
      return;
    }
    next();
  };
}

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
      router[method](path, formGuard(endpoint.form === true), ...chain);
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
