"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.requestLogger = requestLogger;
const node_crypto_1 = __importDefault(require("node:crypto"));
const pino_http_1 = __importDefault(require("pino-http"));
const logger_1 = require("../logger");
const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;
/**
 * One log line per request with a request id (taken from a well-formed X-Request-Id, else generated,
 * and echoed back). Only method, redacted URL and status are logged: never headers or bodies.
 */
function requestLogger(logger) {
    return (0, pino_http_1.default)({
        logger,
        genReqId(req, res) {
            const incoming = req.headers['x-request-id'];
            const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : node_crypto_1.default.randomUUID();
            res.setHeader('X-Request-Id', id);
            return id;
        },
        serializers: {
            req: (req) => ({ id: req.id, method: req.method, url: (0, logger_1.redactUrl)(req.url) }),
            res: (res) => ({ statusCode: res.statusCode }),
        },
        customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : 'info'),
    });
}
//# sourceMappingURL=request-logger.js.map