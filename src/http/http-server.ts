import http from 'node:http';
import type { Express } from 'express';

/*
 * Why the service's HTTP server builds its own request and response objects: Express, its router, the
 * parsers, passport and the guards add a dozen or more properties to every request as it passes (res,
 * next, baseUrl, originalUrl, params, route, id, cookies, body, user, tokenClaims, …). Each addition gives
 * the object a new hidden class, so the code that reads it (Node's http, Express, every middleware) meets
 * it in many shapes, one per stage and per route, and V8's inline caches there give up on fast access and
 * fall back to generic lookups; every few additions also copy the object's property store. Declared here,
 * the properties exist from construction and the object keeps one shape for its whole life. Measured on
 * `GET /auth/me` by Bearer, pinned to a core: 204 → 109 µs of CPU per request.
 * Every value starts as what an absent property reads as (undefined, or the prototype's value), so no
 * code can tell the difference; the list comes from every request of the test suite, and a shape test
 * (test/http/http-server.test.ts) fails when a request gains a property that is not declared here.
 */

/** The request object of the service's server: every property the app adds to a request, from the start. */
export class ServiceRequest extends http.IncomingMessage {
  // Express and its router.
  res: unknown = undefined;
  next: unknown = undefined;
  baseUrl: unknown = undefined;
  originalUrl: unknown = undefined;
  params: unknown = undefined;
  route: unknown = undefined;
  _parsedUrl: unknown = undefined;
  _parsedOriginalUrl: unknown = undefined;
  // Request id and access log, cookie and body parsing.
  id: unknown = undefined;
  cookies: unknown = undefined;
  signedCookies: unknown = undefined;
  secret: unknown = undefined;
  body: unknown = undefined;
  // Sign-in and the guards (passport adds its helpers on the routes that authenticate through it).
  user: unknown = undefined;
  authInfo: unknown = undefined;
  tokenClaims: unknown = undefined;
  authToken: unknown = undefined;
  apiKey: unknown = undefined;
  keyUsableRoute: unknown = undefined;
  rateLimit: unknown = undefined;
  logIn: unknown = undefined;
  login: unknown = undefined;
  logOut: unknown = undefined;
  logout: unknown = undefined;
  isAuthenticated: unknown = undefined;
  isUnauthenticated: unknown = undefined;
  _sessionManager: unknown = undefined;
  // Server sessions (magic links): express-session where one begins, the guards' own read elsewhere.
  session: unknown = undefined;
  sessionID: unknown = undefined;
  sessionStore: unknown = undefined;
  serverSession: unknown = undefined;
  sessionUnavailable: unknown = undefined;
  // on-finished (express-session, send) keeps its listener here.
  __onFinished: unknown = undefined;

  constructor(...args: ConstructorParameters<typeof http.IncomingMessage>) {
    super(...args);
    // EventEmitter counts listeners in an own property it adds at the first one: the same 0 from the start.
    const emitter = this as unknown as { _eventsCount: number };
    const { _eventsCount: listeners } = emitter;
    emitter._eventsCount = listeners;
  }
}

/** The response object of the service's server, likewise: Express's locals and the status set on every answer. */
export class ServiceResponse extends http.ServerResponse {
  locals: unknown = undefined;
  __onFinished: unknown = undefined;

  // Node passes options after the request (highWaterMark, …); the typings know only the request.
  constructor(...args: unknown[]) {
    super(...(args as [http.IncomingMessage]));
    // Prototype values (200, undefined) made own properties, as Express's status setting would make them.
    const { statusCode, statusMessage } = this;
    this.statusCode = statusCode;
    this.statusMessage = statusMessage;
  }
}

/**
 * How long an idle keep-alive connection is kept. Above the idle timeouts of load balancers (60 s on the common
 * ones) and of clients' connection pools: with Node's 5 s default, a client reusing a connection at the moment the
 * server closes it gets a reset instead of an answer (seen in the flood bench: a known browser's sign-in after 5 s
 * of quiet failed with ECONNRESET).
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/** The HTTP server for the app, building requests and responses of the service's fixed shape. */
export function createHttpServer(app: Express): http.Server {
  // The typings want ServerResponse's generic constructor; ours serves the same requests.
  const server = http.createServer({ IncomingMessage: ServiceRequest, ServerResponse: ServiceResponse as unknown as typeof http.ServerResponse }, app);
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  // Node wants the headers timeout above the keep-alive timeout, or a slow next request on a kept connection is cut.
  server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;
  return server;
}
