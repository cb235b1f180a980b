/** Extra parts of an error answer: field errors, headers, and additional public body fields. */
export interface AppErrorOptions {
  errors?: Record<string, string>;
  headers?: Record<string, string>;
  body?: Record<string, unknown>;
  /** What a person can do about it, shown on the HTML error page only (JSON answers keep their contract). */
  hint?: string;
}

/**
 * The one error type of the service. `message` is public: it goes to the client verbatim, so it must
 * never carry secrets or internals. Anything that is not an AppError is answered as a 500.
 */
export class AppError extends Error {
  readonly status: number;
  readonly options: AppErrorOptions;

  constructor(status: number, message: string, options: AppErrorOptions = {}) {
    // An AppError is an answer, not a fault: nothing reads its stack, and capturing one was 4 % of the event loop's
    // time under a credential-stuffing flood, whose every refusal is an AppError (issue 51).
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = stackTraceLimit;
    this.status = status;
    this.options = options;
    this.name = 'AppError';
  }

  static badRequest(message: string, options?: AppErrorOptions): AppError {
    return new AppError(400, message, options);
  }

  static validation(errors: Record<string, string>): AppError {
    return new AppError(400, 'Validation failed', { errors });
  }

  static unauthorized(message = 'Authentication required', options?: AppErrorOptions): AppError {
    return new AppError(401, message, options);
  }

  static forbidden(message = 'Insufficient permissions'): AppError {
    return new AppError(403, message);
  }

  static notFound(message = 'Not found'): AppError {
    return new AppError(404, message);
  }

  static conflict(message: string): AppError {
    return new AppError(409, message);
  }

  static tooManyRequests(retryAfterSeconds: number): AppError {
    return new AppError(429, 'Too many requests. Please try again later.', {
      headers: { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
    });
  }

  static serviceUnavailable(message = 'Service unavailable', retryAfterSeconds = 5): AppError {
    return new AppError(503, message, { headers: { 'Retry-After': String(retryAfterSeconds) } });
  }
}
