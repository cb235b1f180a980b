/** Extra parts of an error answer: field errors, headers, and additional public body fields. */
export interface AppErrorOptions {
    errors?: Record<string, string>;
    headers?: Record<string, string>;
    body?: Record<string, unknown>;
}
/**
 * The one error type of the service. `message` is public: it goes to the client verbatim, so it must
 * never carry secrets or internals. Anything that is not an AppError is answered as a 500.
 */
export declare class AppError extends Error {
    readonly status: number;
    readonly options: AppErrorOptions;
    constructor(status: number, message: string, options?: AppErrorOptions);
    static badRequest(message: string, options?: AppErrorOptions): AppError;
    static validation(errors: Record<string, string>): AppError;
    static unauthorized(message?: string, options?: AppErrorOptions): AppError;
    static forbidden(message?: string): AppError;
    static notFound(message?: string): AppError;
    static conflict(message: string): AppError;
    static tooManyRequests(retryAfterSeconds: number): AppError;
    static serviceUnavailable(message?: string, retryAfterSeconds?: number): AppError;
}
