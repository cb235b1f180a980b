"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.AppError = void 0;
/**
 * The one error type of the service. `message` is public: it goes to the client verbatim, so it must
 * never carry secrets or internals. Anything that is not an AppError is answered as a 500.
 */
class AppError extends Error {
    status;
    options;
    constructor(status, message, options = {}) {
        super(message);
        this.status = status;
        this.options = options;
        this.name = 'AppError';
    }
    static badRequest(message, options) {
        return new AppError(400, message, options);
    }
    static validation(errors) {
        return new AppError(400, 'Validation failed', { errors });
    }
    static unauthorized(message = 'Authentication required', options) {
        return new AppError(401, message, options);
    }
    static forbidden(message = 'Insufficient permissions') {
        return new AppError(403, message);
    }
    static notFound(message = 'Not found') {
        return new AppError(404, message);
    }
    static conflict(message) {
        return new AppError(409, message);
    }
    static tooManyRequests(retryAfterSeconds) {
        return new AppError(429, 'Too many requests. Please try again later.', {
            headers: { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
        });
    }
    static serviceUnavailable(message = 'Service unavailable', retryAfterSeconds = 5) {
        return new AppError(503, message, { headers: { 'Retry-After': String(retryAfterSeconds) } });
    }
}
exports.AppError = AppError;
//# sourceMappingURL=app-error.js.map