import type { RequestHandler } from 'express';
import type { Container } from '../container';
import { adminAudit } from '../http/request-context';
import type { AdminUserChanges, AdminUserCreate, UserListQuery } from '../services/accounts/user-admin.service';
import { TOTAL_EXACT_HEADER } from '../services/accounts/user-list';

/** Handlers of the CONTRACT 4 users API; the route schemas have parsed the input. */
export function createUsersController({ userAdmin }: Container) {
  const list: RequestHandler = async (req, res) => {
    const { totalExact, ...page } = await userAdmin.list(req.query as unknown as UserListQuery);
    // The body keeps CONTRACT 4's shape; whether `total` is the counting limit rather than a count rides beside it.
    res.set(TOTAL_EXACT_HEADER, String(totalExact)).json(page);
  };

  const create: RequestHandler = async (req, res) => {
    res.status(201).json({ user: await userAdmin.create(req.body as AdminUserCreate, adminAudit(req)) });
  };

  const get: RequestHandler = async (req, res) => {
    res.json({ user: await userAdmin.get(req.params.id as string) });
  };

  const update: RequestHandler = async (req, res) => {
    res.json({ user: await userAdmin.update(req.params.id as string, req.body as AdminUserChanges, adminAudit(req)) });
  };

  const remove: RequestHandler = async (req, res) => {
    await userAdmin.remove(req.params.id as string, adminAudit(req));
    res.status(204).end();
  };

  return { list, create, get, update, remove };
}
