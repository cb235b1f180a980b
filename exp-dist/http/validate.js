"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.fieldErrors = fieldErrors;
exports.parseOrThrow = parseOrThrow;
exports.validate = validate;
const app_error_1 = require("./app-error");
/** Flattens zod issues into the contract's `{ field: message }` map; unknown keys are named one by one. */
function fieldErrors(error) {
    const errors = {};
    for (const issue of error.issues) {
        if (issue.code === 'unrecognized_keys') {
            for (const key of issue.keys)
                errors[[...issue.path, key].join('.')] ??= 'unknown field';
            continue;
        }
        const field = issue.path.length > 0 ? issue.path.join('.') : '_';
        errors[field] ??= issue.message;
    }
    return errors;
}
/** Parses a value with a schema, throwing the contract's 400 on failure. */
function parseOrThrow(schema, value) {
    const result = schema.safeParse(value);
    if (!result.success)
        throw app_error_1.AppError.validation(fieldErrors(result.error));
    return result.data;
}
/**
 * Replaces req.body / req.query / req.params with their parsed, typed form, so only validated data
 * reaches a handler. (Express 5 exposes req.query as a getter, hence defineProperty.)
 */
function validate(schemas) {
    return (req, _res, next) => {
        if (schemas.params)
            req.params = parseOrThrow(schemas.params, req.params);
        if (schemas.query) {
            Object.defineProperty(req, 'query', { value: parseOrThrow(schemas.query, req.query), writable: true, configurable: true });
        }
        if (schemas.body)
            req.body = parseOrThrow(schemas.body, req.body ?? {});
        next();
    };
}
//# sourceMappingURL=validate.js.map