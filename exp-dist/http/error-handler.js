"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.errorHandler = exports.notFoundHandler = void 0;
exports.isDatabaseUnavailable = isDatabaseUnavailable;
const sequelize_1 = require("sequelize");
const app_error_1 = require("./app-error");
const negotiation_1 = require("./negotiation");
/** Translates errors thrown by body parsing and the database into AppErrors; anything else stays unknown. */
function toAppError(err) {
    if (err instanceof app_error_1.AppError)
        return err;
    const parserError = err;
    switch (parserError?.type) {
        case 'entity.parse.failed':
            return app_error_1.AppError.badRequest('Invalid JSON in request body');
        case 'entity.too.large':
            return new app_error_1.AppError(413, 'Request body too large');
        case 'charset.unsupported':
        case 'encoding.unsupported':
            return new app_error_1.AppError(415, 'Unsupported request body encoding');
        case 'parameters.too.many':
            return new app_error_1.AppError(413, 'Too many form fields');
    }
    if (isDatabaseUnavailable(err))
        return app_error_1.AppError.serviceUnavailable();
    return undefined;
}
/** Connection-level failures mean the database is unreachable, which is the client's 503, not a 500. */
function isDatabaseUnavailable(err) {
    if (err instanceof sequelize_1.ConnectionError || err instanceof sequelize_1.TimeoutError)
        return true;
    if (!(err instanceof sequelize_1.BaseError))
        return false;
    const code = err.parent?.code;
    return code === 'SQLITE_BUSY' || code === 'SQLITE_CANTOPEN' || code === 'PROTOCOL_CONNECTION_LOST' || code === 'ECONNREFUSED';
}
const notFoundHandler = (_req, _res, next) => {
    next(app_error_1.AppError.notFound());
};
exports.notFoundHandler = notFoundHandler;
/** The one error handler: known errors become their public answer, unknown ones a bare 500. */
const errorHandler = (err, req, res, _next) => {
    const known = toAppError(err);
    const status = known?.status ?? 500;
    const message = known?.message ?? 'Internal server error';
    if (!known)
        req.log?.error({ err }, 'unhandled error');
    else if (status >= 500)
        req.log?.warn({ err: { message: err.message, name: err.name } }, 'request failed');
    if (res.headersSent) {
        res.destroy();
        return;
    }
    for (const [name, value] of Object.entries(known?.options.headers ?? {}))
        res.setHeader(name, value);
    res.status(status);
    if ((0, negotiation_1.isBrowserRequest)(req)) {
        res.render('error', { title: status === 404 ? 'Not found' : 'Error', status, message });
        return;
    }
    res.json({ error: message, ...(known?.options.errors ? { errors: known.options.errors } : {}), ...(known?.options.body ?? {}) });
};
exports.errorHandler = errorHandler;
//# sourceMappingURL=error-handler.js.map