"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.BODY_LIMIT = void 0;
exports.bodyParsing = bodyParsing;
const express_1 = __importDefault(require("express"));
const app_error_1 = require("./app-error");
exports.BODY_LIMIT = '100kb';
const parseJson = express_1.default.json({ limit: exports.BODY_LIMIT, strict: true });
const parseForm = express_1.default.urlencoded({ limit: exports.BODY_LIMIT, extended: false, parameterLimit: 200 });
/**
 * JSON and urlencoded form bodies up to 100 kB. Any other body type is a 415 here; a request without a
 * body needs no content type. Whether a form is welcome is decided per endpoint (see api-router).
 */
function bodyParsing() {
    const rejectOtherTypes = (req, _res, next) => {
        if (!req.is(['application/json', 'application/x-www-form-urlencoded']) && hasBody(req)) {
            next(new app_error_1.AppError(415, 'Content-Type must be application/json'));
            return;
        }
        next();
    };
    return [rejectOtherTypes, parseJson, parseForm];
}
function hasBody(req) {
    const length = req.headers['content-length'];
    return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}
//# sourceMappingURL=body-parsing.js.map