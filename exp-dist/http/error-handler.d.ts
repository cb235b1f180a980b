import type { ErrorRequestHandler, RequestHandler } from 'express';
/** Connection-level failures mean the database is unreachable, which is the client's 503, not a 500. */
export declare function isDatabaseUnavailable(err: unknown): boolean;
export declare const notFoundHandler: RequestHandler;
/** The one error handler: known errors become their public answer, unknown ones a bare 500. */
export declare const errorHandler: ErrorRequestHandler;
