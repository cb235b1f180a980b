import type { RequestHandler } from 'express';
import { type Permission } from '../auth/permissions';
import type { AuthPassport } from '../auth/passport';
import type { Role } from '../models';
export declare const GUARD_MESSAGES: {
    readonly unauthenticated: "Authentication required";
    readonly forbidden: "Insufficient permissions";
};
/** The four route guards of SPEC "Route protection", over the given Passport strategies. */
export declare function createGuards(passport: AuthPassport, strategies: string[]): {
    optionalAuth: RequestHandler<import("express-serve-static-core").ParamsDictionary, any, any, import("qs").ParsedQs, Record<string, any>>;
    requireAuth: RequestHandler<import("express-serve-static-core").ParamsDictionary, any, any, import("qs").ParsedQs, Record<string, any>>;
    requireRole: (...roles: Role[]) => RequestHandler;
    requirePermission: (permission: Permission) => RequestHandler;
};
export type Guards = ReturnType<typeof createGuards>;
