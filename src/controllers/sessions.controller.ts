import type { RequestHandler } from 'express';
import type { Container } from '../container';
import { AppError } from '../http/app-error';
import { adminAudit } from '../http/request-context';

export const SESSION_MESSAGES = {
  notFound: 'Session not found',
  userNotFound: 'User not found',
} as const;

/** Handlers of CONTRACT 8's session endpoints; the route schemas have parsed the ids. */
export function createSessionsController({ userSessions, userAdmin }: Container) {
  const self = (req: Parameters<RequestHandler>[0]) => req.user as Express.User;

  const mine: RequestHandler = async (req, res) => {
    res.json({ sessions: await userSessions.list(self(req).id, req.tokenClaims?.sid) });
  };

  const revokeMine: RequestHandler = async (req, res) => {
    if (!(await userSessions.revoke(self(req).id, req.params.id as string, adminAudit(req)))) throw AppError.notFound(SESSION_MESSAGES.notFound);
    res.status(204).end();
  };

  const revokeOthers: RequestHandler = async (req, res) => {
    res.json({ revoked: await userSessions.revokeAll(self(req).id, req.tokenClaims?.sid, adminAudit(req)) });
  };

  /** The user named by the route, or 404 (an admin may ask about any id). */
  async function targetOf(req: Parameters<RequestHandler>[0]): Promise<string> {
    const id = req.params.id as string;
    await userAdmin.get(id).catch(() => {
      throw AppError.notFound(SESSION_MESSAGES.userNotFound);
    });
    return id;
  }

  const ofUser: RequestHandler = async (req, res) => {
    res.json({ sessions: await userSessions.list(await targetOf(req), req.tokenClaims?.sid) });
  };

  const revokeOfUser: RequestHandler = async (req, res) => {
    if (!(await userSessions.revoke(await targetOf(req), req.params.sid as string, adminAudit(req)))) throw AppError.notFound(SESSION_MESSAGES.notFound);
    res.status(204).end();
  };

  const revokeAllOfUser: RequestHandler = async (req, res) => {
    res.json({ revoked: await userSessions.revokeAll(await targetOf(req), undefined, adminAudit(req)) });
  };

  return { mine, revokeMine, revokeOthers, ofUser, revokeOfUser, revokeAllOfUser };
}
