import type { Request } from 'express';

/** What services may know about the request that caused them: who asked from where, never req itself. */
export interface RequestContext {
  ip: string | null;
  userAgent: string | null;
}

/** Who made an admin change and from where, for the activity row the service writes. */
export interface AdminAudit {
  actor: { id: string; email: string };
  context: RequestContext;
}

export function requestContext(req: Request): RequestContext {
  const userAgent = req.get('user-agent');
  return { ip: req.ip ?? null, userAgent: userAgent ? userAgent.slice(0, 512) : null };
}

/** The signed-in actor of a guarded admin route (the guard has set req.user). */
export function adminAudit(req: Request): AdminAudit {
  const user = req.user as Express.User;
  return { actor: { id: user.id, email: user.email }, context: requestContext(req) };
}
