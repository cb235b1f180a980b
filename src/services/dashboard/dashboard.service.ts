import { Op, QueryTypes, type Sequelize } from 'sequelize';
import { ROLES, type Models, type Role } from '../../models';
import { readsMayLag } from '../../db/read-replicas';
import { HOUR_MS, type ActivityRollup, type RollupRow } from './activity-rollup';

const DAY_MS = 24 * HOUR_MS;

/** The activity actions of a completed sign-in, one per method family (the method itself is in the row). */
export const SIGN_IN_ACTIONS = ['auth.login', 'auth.passkey_login', 'oauth.login', 'auth.otp_verified', 'auth.magic_link_used'] as const;
const FAILED = 'auth.login_failed';
const REUSE = 'session.reuse_detected';

/*
 * A failed-sign-in spike: an hour with at least this many failures and three times the 30 days' hourly mean.
 * The floor keeps a quiet service's few typos from being called an attack.
 */
export const SPIKE_FLOOR = 20;
const SPIKE_FACTOR = 3;

/** One time span of a chart: an hour of the last 24, or a day of the last 30 (UTC). */
export interface Bucket {
  start: Date;
  end: Date;
}

/** The figures of one window (24 hours by the hour, or 30 days by the day). */
export interface WindowFigures {
  name: 'day' | 'month';
  buckets: Bucket[];
  succeeded: number[];
  failed: number[];
  newUsers: number[];
  /** Sign-ins by method over the window, with the failures by reason for that method. */
  byMethod: Array<{ method: string; succeeded: number; failed: number }>;
  totals: { succeeded: number; failed: number; newUsers: number; reuse: number; throttled: number };
}

/** A security event the dashboard lists, with the activity-log filter that shows its rows. */
export interface SecurityEvent {
  kind: 'reuse' | 'throttled' | 'spike';
  count: number;
  start: Date;
  end: Date;
  action: string;
}

export interface DashboardFigures {
  at: Date;
  windows: WindowFigures[];
  events: SecurityEvent[];
  activeSessions: number;
  adoption: Array<{ role: Role; users: number; twoFactor: number; passkeys: number }>;
}

/** The hourly and daily buckets ending with the current (partial) hour and day. */
function bucketsOf(now: number): Record<'day' | 'month', Bucket[]> {
  const hour = Math.floor(now / HOUR_MS) * HOUR_MS;
  const day = Math.floor(now / DAY_MS) * DAY_MS;
  const span = (end: number, size: number, count: number) =>
    Array.from({ length: count }, (_, i) => ({ start: new Date(end - (count - 1 - i) * size), end: new Date(end - (count - 2 - i) * size) }));
  return { day: span(hour, HOUR_MS, 24), month: span(day, DAY_MS, 30) };
}

const indexOf = (buckets: Bucket[], at: number) => buckets.findIndex((b) => at >= b.start.getTime() && at < b.end.getTime());

/** The window's figures from the rollup rows (and the new users counted apart). */
function windowOf(name: 'day' | 'month', buckets: Bucket[], rows: RollupRow[], newUsers: number[]): WindowFigures {
  const zeros = () => buckets.map(() => 0);
  const figures = { succeeded: zeros(), failed: zeros() };
  const methods = new Map<string, { method: string; succeeded: number; failed: number }>();
  const totals = { succeeded: 0, failed: 0, newUsers: newUsers.reduce((a, b) => a + b, 0), reuse: 0, throttled: 0 };
  for (const row of rows) {
    const i = indexOf(buckets, row.hour * HOUR_MS);
    if (i < 0) continue;
    if (row.action === REUSE) {
      totals.reuse += row.total;
      continue;
    }
    const outcome = row.action === FAILED ? 'failed' : 'succeeded';
    figures[outcome][i] += row.total;
    totals[outcome] += row.total;
    if (row.action === FAILED && row.reason === 'throttled') totals.throttled += row.total;
    const method = row.method || 'unknown';
    const entry = methods.get(method) ?? { method, succeeded: 0, failed: 0 };
    entry[outcome] += row.total;
    methods.set(method, entry);
  }
  const byMethod = [...methods.values()].sort((a, b) => b.succeeded + b.failed - (a.succeeded + a.failed) || a.method.localeCompare(b.method));
  return { name, buckets, ...figures, newUsers, byMethod, totals };
}

/** Reuse and throttling per day, and every hour of the 30 days whose failures stand out. */
function eventsOf(month: Bucket[], rows: RollupRow[]): SecurityEvent[] {
  const events: SecurityEvent[] = [];
  const perDay = new Map<string, SecurityEvent>();
  const failedPerHour = new Map<number, number>();
  for (const row of rows) {
    const kind = row.action === REUSE ? 'reuse' : row.action === FAILED && row.reason === 'throttled' ? 'throttled' : null;
    if (row.action === FAILED) failedPerHour.set(row.hour, (failedPerHour.get(row.hour) ?? 0) + row.total);
    const i = indexOf(month, row.hour * HOUR_MS);
    if (!kind || i < 0) continue;
    const key = `${kind}:${i}`;
    const event = perDay.get(key) ?? { kind, count: 0, ...month[i], action: row.action };
    event.count += row.total;
    perDay.set(key, event);
  }
  const mean = [...failedPerHour.values()].reduce((a, b) => a + b, 0) / (month.length * 24);
  const threshold = Math.max(SPIKE_FLOOR, SPIKE_FACTOR * mean);
  for (const [hour, count] of failedPerHour) {
    if (count >= threshold) events.push({ kind: 'spike', count, start: new Date(hour * HOUR_MS), end: new Date((hour + 1) * HOUR_MS), action: FAILED });
  }
  events.push(...perDay.values());
  return events.sort((a, b) => b.start.getTime() - a.start.getTime() || a.kind.localeCompare(b.kind));
}

/**
 * The admin dashboard's figures (CONTRACT 6). Nothing here reads the activity log: sign-ins and security
 * events come from the hourly rollup, users by role and new users from counts the database's triggers keep
 * (user_role_counts, user_signups), the rest from index range scans (sessions by expiry, second factors and
 * passkeys by user).
 */
export function createDashboardService({ sequelize, models, rollup }: { sequelize: Sequelize; models: Models; rollup: ActivityRollup }) {
  /**
   * New users per bucket from `user_signups` (users still present, by the hour they were created; kept by
   * triggers on users, migration 20261128003000): at most 720 rows by a primary-key range, however many signed up.
   */
  async function newUsersIn(groups: Bucket[][]): Promise<number[][]> {
    const from = Math.min(...groups.flat().map((b) => b.start.getTime()));
    const rows = await sequelize.query<{ hour: number | string; total: number | string }>('SELECT hour, total FROM user_signups WHERE hour >= ?', {
      replacements: [Math.floor(from / HOUR_MS)],
      type: QueryTypes.SELECT,
    });
    return groups.map((buckets) => {
      const counts = buckets.map(() => 0);
      for (const row of rows) {
        const i = indexOf(buckets, Number(row.hour) * HOUR_MS);
        if (i >= 0) counts[i] += Number(row.total);
      }
      return counts;
    });
  }

  async function perRole(sql: string): Promise<Map<string, number>> {
    const rows = await sequelize.query<{ role: string; total: number }>(sql, { type: QueryTypes.SELECT });
    return new Map(rows.map((r) => [r.role, Number(r.total)]));
  }

  async function adoption(): Promise<DashboardFigures['adoption']> {
    const [users, twoFactor, passkeys] = await Promise.all([
      perRole('SELECT role, total FROM user_role_counts'),
      perRole('SELECT u.role AS role, COUNT(*) AS total FROM two_factor t JOIN users u ON u.id = t.user_id WHERE t.enabled_at IS NOT NULL GROUP BY u.role'),
      perRole('SELECT u.role AS role, COUNT(*) AS total FROM (SELECT DISTINCT user_id FROM passkeys) p JOIN users u ON u.id = p.user_id GROUP BY u.role'),
    ]);
    return ROLES.map((role) => ({ role, users: users.get(role) ?? 0, twoFactor: twoFactor.get(role) ?? 0, passkeys: passkeys.get(role) ?? 0 }));
  }

  async function figures(now = Date.now()): Promise<DashboardFigures> {
    const buckets = bucketsOf(now);
    const [rows, [dayUsers, monthUsers], activeSessions, roles] = await Promise.all([
      rollup.since(buckets.month[0].start.getTime(), [...SIGN_IN_ACTIONS, FAILED, REUSE]),
      newUsersIn([buckets.day, buckets.month]),
      models.Session.count({ where: { expiresAt: { [Op.gt]: new Date(now) }, revokedAt: null } }),
      adoption(),
    ]);
    return {
      at: new Date(now),
      windows: [windowOf('day', buckets.day, rows, dayUsers), windowOf('month', buckets.month, rows, monthUsers)],
      events: eventsOf(buckets.month, rows),
      activeSessions,
      adoption: roles,
    };
  }

  // Figures may show a replica's state, a moment behind (DATABASE_READ_URLS).
  return { figures: (now?: number) => readsMayLag(() => figures(now)) };
}

export type DashboardService = ReturnType<typeof createDashboardService>;
