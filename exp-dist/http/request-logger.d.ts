import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
/**
 * One log line per request with a request id (taken from a well-formed X-Request-Id, else generated,
 * and echoed back). Only method, redacted URL and status are logged: never headers or bodies.
 */
export declare function requestLogger(logger: Logger): import("pino-http").HttpLogger<IncomingMessage, ServerResponse<IncomingMessage>, never>;
