import type { Request, RequestHandler } from 'express';
import { can, type Permission } from '../access/permissions';
import { noStore } from '../http/no-store';
import { noticeOf, withNotice } from '../http/notices';
import type { Guards } from './guards';
import { isPlainObject } from '../profiles/profile-types';

/** One entry of the admin menu: shown only to holders of its permission (null: every signed-in user). */
export interface AdminNavItem {
  href: string;
  label: string;
  permission: Permission | null;
  /** The pages the entry stands for, when more than its own address's (Settings: every /admin/settings page). */
  section?: string;
}

/**
 * The admin site's sections in menu order (CONTRACT 6). The dashboard is the site name's link, so a viewer,
 * who may open nothing but their profile, sees Profile only.
 */
export const ADMIN_NAV: readonly AdminNavItem[] = [
  { href: '/admin/users', label: 'Users', permission: 'manage:users' },
  { href: '/admin/content', label: 'Content', permission: 'create:content' },
  { href: '/admin/collections', label: 'Collections', permission: 'manage:collections' },
  { href: '/admin/activity', label: 'Activity', permission: 'view:activity-logs' },
  { href: '/admin/settings/security', label: 'Settings', permission: 'manage:settings', section: '/admin/settings' },
  { href: '/admin/plugins', label: 'Plugins', permission: 'manage:plugins' },
  { href: '/admin/profile', label: 'Profile', permission: null },
];

/** The menu entries a role may open, the current one marked. */
export function navFor(role: string, currentPath: string) {
  return ADMIN_NAV.filter((item) => item.permission === null || can(role, item.permission)).map((item) => ({
    ...item,
    current: currentPath === item.href || currentPath.startsWith(`${item.section ?? item.href}/`),
  }));
}

/** Where the sign-in page sends the user back to: the page asked for (a post goes back to its form page). */
function returnPath(req: Request): string {
  return req.method === 'GET' ? req.originalUrl : `${req.baseUrl}${req.path}`;
}

/**
 * Guards and layout data for admin pages (CONTRACT 6). Authentication is the app's one step
 * (`guards.optionalAuth`: Bearer, the auth cookie, and whatever it accepts later), so every way of
 * being signed in works here too; only the refusals differ from the API's: not signed in → the sign-in
 * page with `redirect` back here; signed in without the permission → the sign-in page with the reason.
 */
export function createAdminPages(deps: { guards: Pick<Guards, 'optionalAuth'> }) {
  const { guards } = deps;

  const signedIn: RequestHandler = (req, res, next) => {
    noStore(res);
    guards.optionalAuth(req, res, (err?: unknown) => {
      if (err) return next(err);
      if (!req.user) return res.redirect(302, `/auth/login?redirect=${encodeURIComponent(returnPath(req))}`);
      next();
    });
  };

  const permitted =
    (permission: Permission | null): RequestHandler =>
    (req, res, next) => {
      if (permission !== null && !can((req.user as Express.User).role, permission)) {
        return res.redirect(302, withNotice('/auth/login', 'forbidden'));
      }
      next();
    };

  /** What views/admin/partials/top.ejs draws: the user, their menu, and the `?notice=` code's text (src/http/notices.ts). */
  const layout: RequestHandler = (req, res, next) => {
    const user = req.user as Express.User;
    res.locals.layout = {
      user: { id: user.id, email: user.email, username: user.username, role: user.role },
      nav: navFor(user.role, `${req.baseUrl}${req.path}`),
      flash: noticeOf(req.query),
    };
    next();
  };

  /** A post without a body (or with a JSON array or scalar) is an empty form, so controllers always read an object. */
  const formBody: RequestHandler = (req, _res, next) => {
    if (!isPlainObject(req.body)) req.body = {};
    next();
  };

  /** The chain in front of an admin page: `router.get('/users', ...page('manage:users'), users.list)`. */
  function page(permission: Permission | null): RequestHandler[] {
    return [signedIn, permitted(permission), layout, formBody];
  }

  return { page };
}

export type AdminPages = ReturnType<typeof createAdminPages>;
