"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.GUARD_MESSAGES = void 0;
exports.createGuards = createGuards;
const node_crypto_1 = __importDefault(require("node:crypto"));
const app_error_1 = require("../http/app-error");
const negotiation_1 = require("../http/negotiation");
const permissions_1 = require("../auth/permissions");
exports.GUARD_MESSAGES = {
    unauthenticated: 'Authentication required',
    forbidden: 'Insufficient permissions',
};
/** Compares without an early exit, so the time taken says nothing about how much of a role matched. */
function sameRole(a, b) {
    const left = node_crypto_1.default.createHash('sha256').update(a).digest();
    const right = node_crypto_1.default.createHash('sha256').update(b).digest();
    return node_crypto_1.default.timingSafeEqual(left, right);
}
/** API requests get 401/403 JSON; browsers are sent to the sign-in page with the reason. */
function deny(req, res, next, status) {
    const message = status === 401 ? exports.GUARD_MESSAGES.unauthenticated : exports.GUARD_MESSAGES.forbidden;
    if ((0, negotiation_1.isBrowserRequest)(req)) {
        res.redirect(302, `/auth/login?error=${encodeURIComponent(message)}`);
        return;
    }
    next(new app_error_1.AppError(status, message));
}
/** The four route guards of SPEC "Route protection", over the given Passport strategies. */
function createGuards(passport, strategies) {
    /** Sets req.user when a valid credential is present; never refuses by itself. */
    const optionalAuth = (req, res, next) => {
        if (req.user)
            return next();
        passport.authenticate(strategies, { session: false }, (err, user) => {
            if (err)
                return next(err);
            if (user)
                req.user = user;
            next();
        })(req, res, next);
    };
    const requireAuth = (req, res, next) => {
        optionalAuth(req, res, (err) => {
            if (err)
                return next(err);
            if (!req.user)
                return deny(req, res, next, 401);
            next();
        });
    };
    const requireRole = (...roles) => (req, res, next) => {
        requireAuth(req, res, (err) => {
            if (err)
                return next(err);
            const role = req.user.role;
            const allowed = roles.reduce((found, candidate) => sameRole(role, candidate) || found, false);
            if (!allowed)
                return deny(req, res, next, 403);
            next();
        });
    };
    const requirePermission = (permission) => (req, res, next) => {
        requireAuth(req, res, (err) => {
            if (err)
                return next(err);
            if (!(0, permissions_1.can)(req.user.role, permission))
                return deny(req, res, next, 403);
            next();
        });
    };
    return { optionalAuth, requireAuth, requireRole, requirePermission };
}
//# sourceMappingURL=guards.js.map