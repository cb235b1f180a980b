import crypto from 'node:crypto';
import { Op, QueryTypes, type InferAttributes, type Sequelize, type Transaction, type WhereOptions } from 'sequelize';
import type { Logger } from 'pino';
import type { ActivityLog, Models } from '../../models';
import type { KeyValueStore } from '../../store';
import type { RequestContext } from '../../http/request-context';
import { readsMayLag } from '../../db/read-replicas';
import { preparedStatements } from '../../db/prepared-statements';
import type { Statement } from '../../db/prepared-statements';
import type { ActivityRollup } from '../dashboard/activity-rollup';

export const ACTIVITY_ACTIONS = [
  'auth.login',
  'auth.login_failed',
  'auth.logout',
  'auth.register',
  'auth.refresh',
  'auth.password_reset_requested',
  'auth.password_reset',
  'auth.password_changed',
  'auth.otp_verified',
  'auth.magic_link_used',
  'oauth.login',
  'oauth.linked',
  'oauth.unlinked',
  'user.created',
  'user.updated',
  'user.deleted',
  'settings.updated',
  'plugin.updated',
  'session.revoked',
  'session.reuse_detected',
  'auth.passkey_login',
  'passkey.added',
  'passkey.removed',
  // CONTRACT 9: second factor and step-up.
  'auth.2fa_verified',
  'auth.step_up',
  'user.2fa_enabled',
  'user.2fa_disabled',
  'user.2fa_reset',
  'user.recovery_codes_regenerated',
  // CONTRACT 12: account lifecycle.
  'user.email_verified',
  'user.unverified_password_cleared',
  'user.email_change_requested',
  'user.email_changed',
  'user.account_deleted',
  'user.account_exported',
  // CONTRACT 11: API keys and signing keys.
  'api_key.created',
  'api_key.revoked',
  'signing_key.rotated',
  // CONTRACT 16: webhook endpoints.
  'webhook.created',
  'webhook.updated',
  'webhook.deleted',
  'webhook.secret_rotated',
  // CONTRACT 14: the OpenID Provider.
  'oauth_client.created',
  'oauth_client.updated',
  'oauth_client.deleted',
  'oauth.consent_granted',
  'oauth.consent_revoked',
  'oauth.token_reuse_detected',
  // CONTRACT 17: moving users in and out (one row per import or export, with its counts).
  'users.imported',
  'users.exported',
  // CONTRACT 15: enterprise single sign-on.
  'sso.sign_in',
  'sso.account_linked',
  'sso.refused',
  'sso_provider.created',
  'sso_provider.updated',
  'sso_provider.deleted',
] as const;
export type ActivityAction = (typeof ACTIVITY_ACTIONS)[number];

export interface ActivityEntry {
  action: ActivityAction;
  userId?: string | null;
  email?: string | null;
  /** Non-secret facts only: never a password, token or code. */
  details?: Record<string, unknown>;
  /** Set on refusals an attack repeats (a blocked account): such rows collapse, see ActivityRepeat. */
  repeat?: ActivityRepeat;
}

/**
 * Refusals that are "the same" (one key) within one window become one row whose `details.count` says how
 * many there were: an attack from many addresses on one blocked account writes one row per window, not
 * one per attempt.
 */
export interface ActivityRepeat {
  /** What makes two refusals the same (action, reason, method, email): hashed before it reaches the store. */
  key: string;
  /** When the window ends (epoch ms), such as the end of an account throttle's block: the first repeat's value counts. */
  until: number;
}

export interface ActivityFilter {
  page: number;
  limit: number;
  action?: ActivityAction;
  userId?: string;
  /** Entries at or after this time (the dashboard links to an hour or a day of the log). */
  since?: Date;
  /** Entries before this time. */
  until?: Date;
}

/** A log entry as the API shows it. */
export interface ActivityLogView {
  id: number;
  action: string;
  userId: string | null;
  email: string | null;
  ip: string | null;
  userAgent: string | null;
  details: Record<string, unknown> | null;
  createdAt: Date;
}

/*
 * Written by hand, unlike the log's reads: every sign-in, refresh and logout writes a row, and
 * `ActivityLog.create` (instance, validation, hooks, generated INSERT) cost 430 µs of main-thread CPU
 * against 190 for this statement (SQLite; measured). The values are the model's: `details` as the JSON
 * text its column holds, `created_at` a Date, which Sequelize writes in the dialect's own format.
 */
const INSERT_ACTIVITY = 'INSERT INTO activity_logs (action, user_id, email, ip, user_agent, details, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)';

/*
 * Raises a collapsed row's count. Conditional on the stored count being lower, so of two updates that
 * arrive out of order the higher count stays (JSON_EXTRACT: the same function on SQLite and MariaDB).
 */
const RAISE_REPEAT_COUNT = "UPDATE activity_logs SET details = ? WHERE id = ? AND COALESCE(JSON_EXTRACT(details, '$.count'), 0) < ?";

/**
 * The activity log: who did what, from where. Writing it never fails the request it describes. Without
 * a store (some unit tests build the service alone) repeats are written one row each.
 */
export function createActivityService({ sequelize, models, logger, store, rollup }: { sequelize: Sequelize; models: Models; logger: Logger; store?: KeyValueStore; rollup?: ActivityRollup }) {
  /** Counts the entry in the dashboard's hourly rollup (every repeat too), never failing the request. */
  async function countInRollup(entry: ActivityEntry, transaction?: Transaction): Promise<void> {
    try {
      await rollup?.count(entry.action, entry.details, { transaction });
    } catch (err) {
      logger.error({ err: (err as Error).message, action: entry.action }, 'could not count an activity in the rollup');
    }
  }

  /** The INSERT of one row. */
  function row(entry: ActivityEntry, details: Record<string, unknown> | undefined, context: RequestContext): Statement {
    return { sql: INSERT_ACTIVITY, values: [entry.action, entry.userId ?? null, entry.email ?? null, context.ip, context.userAgent, details ? JSON.stringify(details) : null, new Date()] };
  }

  /**
   * The entry's row and its count in the rollup, for a caller that commits them with its own change (a sign-in's
   * session row); null for an entry that only `record` can write (a repeat, counted in the store) or with no rollup.
   */
  function statements(entry: ActivityEntry, context: RequestContext): Statement[] | null {
    if (entry.repeat || !rollup) return null;
    return [row(entry, entry.details, context), rollup.counting(entry.action, entry.details)];
  }

  /** Writes one row; its id, or null when the write failed (logged, never thrown). */
  async function insert(entry: ActivityEntry, details: Record<string, unknown> | undefined, context: RequestContext, transaction?: Transaction): Promise<number | null> {
    const { sql, values } = row(entry, details, context);
    try {
      const { lastId } = await preparedStatements(sequelize).write(sql, values, { transaction });
      return lastId;
    } catch (err) {
      logger.error({ err: (err as Error).message, action: entry.action }, 'could not write the activity log');
      return null;
    }
  }

  /**
   * The first repeat in a window writes the row (count 1) and keeps its id in the store; later ones count
   * in the store (atomic, shared by every instance) and raise the row's count. A later repeat that finds
   * no row id yet (the first one's insert still running) leaves the count to the next one. A failing
   * store means one row per repeat, as before: never none.
   */
  async function recordRepeat(entry: ActivityEntry, repeat: ActivityRepeat, context: RequestContext): Promise<void> {
    const ttlSeconds = (repeat.until - Date.now()) / 1000;
    // Keyed by `key` alone: the counter expires when the window ends, so the next window starts a new row
    // (an `until` read from a counter's TTL may differ by a millisecond between requests).
    const id = crypto.createHash('sha256').update(repeat.key).digest('hex');
    const keys = { count: `activity:repeat:${id}`, row: `activity:repeat-row:${id}` };
    const counted = store && ttlSeconds > 0 ? await store.increment(keys.count, ttlSeconds).catch(() => null) : null;
    if (!store || !counted) {
      await insert(entry, { ...entry.details, count: 1 }, context);
      return;
    }
    const { count } = counted;
    const details = { ...entry.details, count };
    if (count === 1) {
      const rowId = await insert(entry, details, context);
      if (rowId !== null) await store.set(keys.row, String(rowId), ttlSeconds).catch(() => undefined);
      return;
    }
    try {
      const rowId = await store.get(keys.row);
      if (rowId === null) return;
      await sequelize.query(RAISE_REPEAT_COUNT, { replacements: [JSON.stringify(details), Number(rowId), count], type: QueryTypes.UPDATE });
    } catch (err) {
      logger.error({ err: (err as Error).message, action: entry.action }, 'could not count a repeated activity');
    }
  }

  /**
   * Writes the entry. `transaction`: the row commits with what it logs (an event beside it, say); a repeat then
   * writes a row of its own (repeats are counted in the store, which no transaction covers).
   */
  async function record(entry: ActivityEntry, context: RequestContext, options: { transaction?: Transaction } = {}): Promise<void> {
    const { transaction } = options;
    if (transaction) {
      // One connection holds the transaction: its statements run one after the other.
      await insert(entry, entry.details, context, transaction);
      await countInRollup(entry, transaction);
      return;
    }
    // Side by side: the sign-in path waits for the slower of the two statements, not their sum.
    await Promise.all([countInRollup(entry), entry.repeat ? recordRepeat(entry, entry.repeat, context) : insert(entry, entry.details, context)]);
  }

  /** One page of the log, newest first, filtered by action, user and time range. */
  async function list(filter: ActivityFilter): Promise<{ logs: ActivityLogView[]; total: number }> {
    const where: WhereOptions<InferAttributes<ActivityLog>> = {};
    if (filter.action) where.action = filter.action;
    if (filter.userId) where.userId = filter.userId;
    if (filter.since || filter.until) where.createdAt = { ...(filter.since ? { [Op.gte]: filter.since } : {}), ...(filter.until ? { [Op.lt]: filter.until } : {}) };
    const { rows, count } = await models.ActivityLog.findAndCountAll({
      where,
      // The id breaks ties between entries written in the same millisecond.
      order: [
        ['createdAt', 'DESC'],
        ['id', 'DESC'],
      ],
      limit: filter.limit,
      offset: (filter.page - 1) * filter.limit,
    });
    const logs = rows.map((row) => ({
      id: row.id,
      action: row.action,
      userId: row.userId,
      email: row.email,
      ip: row.ip,
      userAgent: row.userAgent,
      details: row.details,
      createdAt: row.createdAt,
    }));
    return { logs, total: count };
  }

  // The log may show a replica's state, a moment behind (DATABASE_READ_URLS).
  return { record, statements, list: (filter: ActivityFilter) => readsMayLag(() => list(filter)) };
}

export type ActivityService = ReturnType<typeof createActivityService>;
