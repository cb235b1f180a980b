"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.isBrowserRequest = isBrowserRequest;
/** A browser request is one whose Accept header prefers HTML over JSON (CONTRACT 2). */
function isBrowserRequest(req) {
    return req.accepts(['json', 'html']) === 'html';
}
//# sourceMappingURL=negotiation.js.map