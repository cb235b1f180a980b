import type { RequestHandler } from 'express';
import type { Container } from '../../container';
import { can } from '../../access/permissions';
import { CONTENT_STATUSES, ROLES } from '../../models';

/** The dashboard: counts for what the user may manage (through the same services and policy as the API), and links. */
export function createDashboardController({ userAdmin, content }: Container) {
  const show: RequestHandler = async (req, res) => {
    const user = req.user as Express.User;
    const actor = { id: user.id, role: user.role };
    const usersByRole = can(user.role, 'manage:users')
      ? await Promise.all(ROLES.map(async (role) => ({ role, count: (await userAdmin.list({ page: 1, limit: 1, role })).total })))
      : null;
    // Counted with the content policy's read scope: an author's numbers are published items and their own.
    const contentByStatus = can(user.role, 'create:content')
      ? await Promise.all(CONTENT_STATUSES.map(async (status) => ({ status, count: (await content.list(actor, { page: 1, limit: 1, status })).total })))
      : null;
    res.render('admin/dashboard', { title: 'Dashboard', usersByRole, contentByStatus });
  };

  return { show };
}
