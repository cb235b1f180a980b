"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.requestContext = requestContext;
function requestContext(req) {
    const userAgent = req.get('user-agent');
    return { ip: req.ip ?? null, userAgent: userAgent ? userAgent.slice(0, 512) : null };
}
//# sourceMappingURL=request-context.js.map