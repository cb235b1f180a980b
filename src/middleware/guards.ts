import crypto from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { AppError } from '../http/app-error';
import { isBrowserRequest } from '../http/negotiation';
import { allows, type Permission } from '../access/permissions';
import type { CredentialCheck } from '../sessions/token-check';
import type { Role } from '../models';
import { withNotice } from '../http/notices';
import type { SignedInGate } from './two-factor-gate';

export const GUARD_MESSAGES = {
  unauthenticated: 'Authentication required',
  forbidden: 'Insufficient permissions',
  notSelf: 'Forbidden',
} as const;

/** Methods that only read: what a key may do on its owner's self routes without a permission. */
const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD']);

/** Compares without an early exit, so the time taken says nothing about how much of a role matched. */
function sameRole(a: string, b: string): boolean {
  const left = crypto.createHash('sha256').update(a).digest();
  const right = crypto.createHash('sha256').update(b).digest();
  return crypto.timingSafeEqual(left, right);
}

/** API requests get 401/403 JSON; browsers are sent to the sign-in page with the reason. */
function deny(req: Request, res: Response, next: NextFunction, status: 401 | 403): void {
  const message = status === 401 ? GUARD_MESSAGES.unauthenticated : GUARD_MESSAGES.forbidden;
  if (isBrowserRequest(req)) {
    res.redirect(302, withNotice('/auth/login', status === 401 ? 'sign_in_required' : 'forbidden'));
    return;
  }
  next(new AppError(status, message));
}

/**
 * The four route guards of SPEC "Route protection". The credential checks (an API key, the access token,
 * then the server session) are tried in order until one signs the request in.
 */
export function createGuards(deps: { credentials: CredentialCheck[]; /** Run once a credential signed the request in (the two-factor enrolment gate). */ gate?: SignedInGate }) {
  const { credentials, gate } = deps;

  async function signIn(req: Request): Promise<void> {
    for (const check of credentials) if (await check(req)) return;
  }

  /**
   * Sets req.user when a valid credential is present; refuses only what the gate refuses for a signed-in
   * user (JSON: its 403; browsers and admin pages: a redirect to its page).
   */
  const optionalAuth: RequestHandler = (req, res, next) => {
    if (req.user) return next();
    signIn(req).then(async () => {
      const refusal = req.user && gate ? await gate(req) : null;
      if (!refusal) return next();
      if (isBrowserRequest(req) || req.baseUrl.startsWith('/admin')) return res.redirect(302, refusal.page);
      next(new AppError(refusal.status, refusal.message));
    }).catch(next);
  };

  const requireAuth: RequestHandler = (req, res, next) => {
    optionalAuth(req, res, (err?: unknown) => {
      if (err) return next(err);
      if (!req.user) return deny(req, res, next, 401);
      next();
    });
  };

  const requireRole =
    (...roles: Role[]): RequestHandler =>
    (req, res, next) => {
      requireAuth(req, res, (err?: unknown) => {
        if (err) return next(err);
        const role = (req.user as Express.User).role;
        const allowed = roles.reduce((found, candidate) => sameRole(role, candidate) || found, false);
        if (!allowed) return deny(req, res, next, 403);
        next();
      });
    };

  const requirePermission =
    (permission: Permission): RequestHandler =>
    (req, res, next) => {
      requireAuth(req, res, (err?: unknown) => {
        if (err) return next(err);
        if (!allows((req.user as Express.User).role, permission, req.apiKey?.permissions)) return deny(req, res, next, 403);
        next();
      });
    };

  /**
   * The signed-in user named by the route parameter, or a holder of the permission. Anyone else gets
   * 403 whether or not the id exists, so the answer never tells a stranger which ids are real. Being
   * oneself is the person's right, not a key's: a key acts with its own permissions only, so by a key
   * "self" may read but not write (a key with no permission reads its owner's records and changes nothing).
   */
  const requireSelfOr =
    (permission: Permission, param: string): RequestHandler =>
    (req, res, next) => {
      requireAuth(req, res, (err?: unknown) => {
        if (err) return next(err);
        const user = req.user as Express.User;
        const self = user.id === req.params[param] && (!req.apiKey || SAFE_METHODS.has(req.method));
        if (!self && !allows(user.role, permission, req.apiKey?.permissions)) return next(new AppError(403, GUARD_MESSAGES.notSelf));
        next();
      });
    };

  return { optionalAuth, requireAuth, requireRole, requirePermission, requireSelfOr };
}

export type Guards = ReturnType<typeof createGuards>;
