"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ApiDocs = void 0;
exports.createApiRouter = createApiRouter;
const express_1 = require("express");
const zod_to_openapi_1 = require("@asteasolutions/zod-to-openapi");
const app_error_1 = require("./app-error");
const validate_1 = require("./validate");
/** Collects every endpoint's description; one per app, rendered at /api/openapi.json. */
class ApiDocs {
    info;
    registry = new zod_to_openapi_1.OpenAPIRegistry();
    document;
    constructor(info) {
        this.info = info;
        this.registry.registerComponent('securitySchemes', 'bearerAuth', { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
        this.registry.registerComponent('securitySchemes', 'cookieAuth', { type: 'apiKey', in: 'cookie', name: 'auth_token' });
    }
    add(method, path, endpoint) {
        this.document = undefined;
        const contentTypes = endpoint.form ? ['application/json', 'application/x-www-form-urlencoded'] : ['application/json'];
        this.registry.registerPath({
            method,
            path: path.replace(/:([A-Za-z0-9_]+)/g, '{$1}'),
            summary: endpoint.summary,
            description: endpoint.description,
            tags: endpoint.tags,
            security: endpoint.auth ? [{ bearerAuth: [] }, { cookieAuth: [] }] : undefined,
            request: {
                // zod-to-openapi only reads object schemas for parameters; endpoints pass z.object for these.
                params: endpoint.params,
                query: endpoint.query,
                body: endpoint.body
                    ? { required: true, content: Object.fromEntries(contentTypes.map((type) => [type, { schema: endpoint.body }])) }
                    : undefined,
            },
            responses: Object.fromEntries(Object.entries(endpoint.responses).map(([status, doc]) => {
                const { description, schema } = typeof doc === 'string' ? { description: doc, schema: undefined } : doc;
                return [status, schema ? { description, content: { 'application/json': { schema } } } : { description }];
            })),
        });
    }
    toJSON() {
        this.document ??= new zod_to_openapi_1.OpenApiGeneratorV31(this.registry.definitions).generateDocument({ openapi: '3.1.0', info: this.info });
        return this.document;
    }
}
exports.ApiDocs = ApiDocs;
/** Urlencoded bodies reach only endpoints that serve an HTML form; everywhere else they are a 415. */
function formGuard(acceptsForm) {
    return (req, _res, next) => {
        if (!acceptsForm && req.is('application/x-www-form-urlencoded')) {
            next(new app_error_1.AppError(415, 'Content-Type must be application/json'));
            return;
        }
        next();
    };
}
/**
 * A Router whose endpoints are documented and validated from the same description:
 * `api.post('/login', loginEndpoint, limit.login, handler)`.
 */
function createApiRouter(docs, mountPath) {
    const router = (0, express_1.Router)();
    const define = (method) => (path, endpoint, ...handlers) => {
        docs.add(method, mountPath + path, endpoint);
        // Validation runs after the guards and limits (a stranger gets 401, not a schema lesson) and
        // right before the handler, which therefore only ever sees parsed input.
        const validation = endpoint.body || endpoint.query || endpoint.params ? [(0, validate_1.validate)(endpoint)] : [];
        const guards = handlers.slice(0, -1);
        const handler = handlers.slice(-1);
        router[method](path, formGuard(endpoint.form === true), ...guards, ...validation, ...handler);
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
//# sourceMappingURL=api-router.js.map