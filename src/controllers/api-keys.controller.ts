import type { Request, RequestHandler } from 'express';
import type { Container } from '../container';
import { AppError } from '../http/app-error';
import { adminAudit } from '../http/request-context';
import { API_KEY_SERVICE_MESSAGES, type ApiKeyInput } from '../services/security/api-key.service';

export const API_KEY_CONTROLLER_MESSAGES = {
  userNotFound: 'User not found',
} as const;

/** Handlers of CONTRACT 11's API key endpoints; the route schemas have parsed bodies and ids. */
export function createApiKeysController({ apiKeys, userAdmin }: Container) {
  const self = (req: Request) => req.user as Express.User;

  const create: RequestHandler = async (req, res) => {
    const created = await apiKeys.create(self(req), req.body as ApiKeyInput, adminAudit(req));
    res.status(201).json(created);
  };

  const mine: RequestHandler = async (req, res) => {
    res.json({ apiKeys: await apiKeys.list(self(req).id) });
  };

  const revokeMine: RequestHandler = async (req, res) => {
    if (!(await apiKeys.revoke(self(req).id, req.params.id as string, adminAudit(req)))) throw AppError.notFound(API_KEY_SERVICE_MESSAGES.notFound);
    res.status(204).end();
  };

  /** The user named by the route, or 404 (an admin may ask about any id). */
  async function targetOf(req: Request): Promise<string> {
    const id = req.params.id as string;
    await userAdmin.get(id).catch(() => {
      throw AppError.notFound(API_KEY_CONTROLLER_MESSAGES.userNotFound);
    });
    return id;
  }

  const ofUser: RequestHandler = async (req, res) => {
    res.json({ apiKeys: await apiKeys.list(await targetOf(req)) });
  };

  const revokeOfUser: RequestHandler = async (req, res) => {
    if (!(await apiKeys.revoke(await targetOf(req), req.params.keyId as string, adminAudit(req)))) throw AppError.notFound(API_KEY_SERVICE_MESSAGES.notFound);
    res.status(204).end();
  };

  return { create, mine, revokeMine, ofUser, revokeOfUser };
}
