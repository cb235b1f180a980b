"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.docsRoutes = docsRoutes;
const express_1 = require("express");
const swagger_ui_express_1 = __importDefault(require("swagger-ui-express"));
/** The OpenAPI document, generated from the schemas the routes validate with, and a viewer for it. */
function docsRoutes(docs) {
    const router = (0, express_1.Router)();
    router.get('/api/openapi.json', (_req, res) => {
        res.json(docs.toJSON());
    });
    router.use('/api/docs', swagger_ui_express_1.default.serve);
    router.get('/api/docs', swagger_ui_express_1.default.setup(undefined, { swaggerOptions: { url: '/api/openapi.json' } }));
    return router;
}
//# sourceMappingURL=docs.routes.js.map