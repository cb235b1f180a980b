import type { RequestHandler } from 'express';
import type { Container } from '../../container';
import { can } from '../../access/permissions';
import { CONTENT_STATUSES } from '../../models';
import type { DashboardFigures, SecurityEvent, WindowFigures } from '../../services/dashboard/dashboard.service';
import { barChart, lineChart } from './dashboard-charts';

const WINDOW_TITLES = { day: 'Last 24 hours (by the hour, UTC)', month: 'Last 30 days (by the day, UTC)' };
const EVENT_TITLES: Record<SecurityEvent['kind'], string> = {
  spike: 'Failed sign-in spike',
  throttled: 'Sign-ins refused by the account throttle (locked accounts)',
  reuse: 'Refresh token reuse detected',
};

/** The activity log filtered to an action and a time span: where every figure and event links. */
export function activityLink(action: string | undefined, start: Date, end: Date): string {
  const query = new URLSearchParams({ ...(action ? { action } : {}), since: start.toISOString(), until: end.toISOString() });
  return `/admin/activity?${query.toString()}`;
}

/** A window's figures with their charts, labels and links, as the view draws them. */
function windowView(window: WindowFigures) {
  const hourly = window.name === 'day';
  const labels = window.buckets.map((b) => b.start.toISOString().slice(hourly ? 11 : 5, hourly ? 16 : 10));
  const every = hourly ? 4 : 5;
  const start = window.buckets[0].start;
  const end = window.buckets[window.buckets.length - 1].end;
  return {
    ...window,
    title: WINDOW_TITLES[window.name],
    labels,
    signInChart: lineChart(labels, [
      { name: 'Succeeded', className: 'series-ok', values: window.succeeded },
      { name: 'Failed', className: 'series-failed', values: window.failed },
    ], every),
    newUsersChart: barChart(labels, window.newUsers, 'series-new', every),
    links: {
      failed: activityLink('auth.login_failed', start, end),
      signIns: activityLink('auth.login', start, end),
      reuse: activityLink('session.reuse_detected', start, end),
      bucket: (i: number, action?: string) => activityLink(action, window.buckets[i].start, window.buckets[i].end),
    },
  };
}

function operatorView(figures: DashboardFigures) {
  return {
    at: figures.at,
    windows: figures.windows.map(windowView),
    events: figures.events.map((e) => ({ ...e, title: EVENT_TITLES[e.kind], href: activityLink(e.action, e.start, e.end) })),
    activeSessions: figures.activeSessions,
    adoption: figures.adoption,
  };
}

/**
 * The dashboard: for those who manage users, the operator's figures (sign-ins, new users, sessions, second
 * factors, security events); content counts for those who make content (through the same policy as the
 * API); and links to what the user may do.
 */
export function createDashboardController({ content, dashboard }: Container) {
  const show: RequestHandler = async (req, res) => {
    const user = req.user as Express.User;
    const actor = { id: user.id, role: user.role };
    const operator = can(user.role, 'manage:users') ? operatorView(await dashboard.figures()) : null;
    // Counted with the content policy's read scope: an author's numbers are published items and their own.
    const contentByStatus = can(user.role, 'create:content')
      ? await Promise.all(CONTENT_STATUSES.map(async (status) => ({ status, count: (await content.list(actor, { page: 1, limit: 1, status })).total })))
      : null;
    res.render('admin/dashboard', { title: 'Dashboard', operator, contentByStatus });
  };

  return { show };
}
