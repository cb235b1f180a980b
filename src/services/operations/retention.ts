import crypto from 'node:crypto';
import { Op, type Model, type ModelStatic, type WhereOptions } from 'sequelize';
import type { Logger } from 'pino';
import type { Models } from '../../models';
import type { KeyValueStore } from '../../store';

/** One kind of row that goes once it is of no more use: a table, and which of its rows may be deleted now. */
export interface RetentionRule {
  /** The table's name, for logs. */
  name: string;
  model: ModelStatic<Model>;
  /** The rows that may go as of `now`; null keeps every row (a retention of 0 days). */
  expired(now: Date): WhereOptions | null;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/**
 * A one-time credential stays a day past its expiry: a link used just after it expired is still answered
 * "expired", not "unknown". A used one is of no more use: codes and links are deleted as they are spent,
 * and a used reset token (kept with its used_at) goes at the next run.
 */
const EXPIRED_GRACE_MS = DAY_MS;
/** How long the delivery log keeps a finished delivery or mail (a pending one stays until it is finished). */
const FINISHED_OUTBOX_DAYS = 30;

/**
 * What retention deletes. Revoked token ids (`revoked_tokens`) are not here: src/sessions/revocations.ts prunes
 * them itself (they must stay exactly as long as the token they revoke could be refreshed). A new table of
 * short-lived rows (server sessions, say) is one more line.
 */
export function retentionRules(models: Models, settings: { activityRetentionDays: number }): RetentionRule[] {
  const graceCutoff = (now: Date) => new Date(now.getTime() - EXPIRED_GRACE_MS);
  const { activityRetentionDays: days } = settings;
  return [
    {
      name: 'activity_logs',
      model: models.ActivityLog,
      expired: (now) => (days === 0 ? null : { createdAt: { [Op.lt]: new Date(now.getTime() - days * DAY_MS) } }),
    },
    // expires_at in epoch seconds.
    { name: 'otp_codes', model: models.OtpCode, expired: (now) => ({ expiresAt: { [Op.lt]: Math.floor(graceCutoff(now).getTime() / 1000) } }) },
    { name: 'auth_verification', model: models.AuthVerification, expired: (now) => ({ expiresAt: { [Op.lt]: graceCutoff(now) } }) },
    {
      name: 'password_reset_tokens',
      model: models.PasswordResetToken,
      expired: (now) => ({ [Op.or]: [{ expiresAt: { [Op.lt]: graceCutoff(now) } }, { usedAt: { [Op.ne]: null } }] }),
    },
    // Email verification and change links (single use: a claimed one is deleted), a day past their end.
    { name: 'email_tokens', model: models.EmailToken, expired: (now) => ({ expiresAt: { [Op.lt]: graceCutoff(now) } }) },
    // Webhook deliveries and mails a month after they were delivered or given up: the delivery log's history.
    {
      name: 'outbox',
      model: models.OutboxEntry,
      expired: (now) => ({ status: { [Op.ne]: 'pending' }, updatedAt: { [Op.lt]: new Date(now.getTime() - FINISHED_OUTBOX_DAYS * DAY_MS) } }),
    },
    // A session a day past its end or its sign-out: its tokens died with it (revocation marks outlive it on their own).
    {
      name: 'sessions',
      model: models.Session,
      expired: (now) => ({ [Op.or]: [{ expiresAt: { [Op.lt]: graceCutoff(now) } }, { revokedAt: { [Op.lt]: graceCutoff(now) } }] }),
    },
  ];
}

export interface RetentionOptions {
  rules: RetentionRule[];
  store: KeyValueStore;
  logger: Logger;
  /** Rows per DELETE: each statement holds its locks only briefly, so requests writing the same tables barely wait. */
  batchSize?: number;
  /** The pause between two DELETEs, leaving the database to the requests. */
  pauseMs?: number;
  /** How often a run starts (each instance tries; one at a time runs). */
  intervalMs?: number;
  /** The first run, this long after start: not while the service is still warming up. */
  firstRunMs?: number;
}

const DEFAULTS = { batchSize: 500, pauseMs: 200, intervalMs: 60 * 60_000, firstRunMs: 60_000 };
/** Held by the instance that is running; a run stops starting batches after RUN_BUDGET_MS, well inside it. */
const LOCK_KEY = 'retention:running';
const LOCK_SECONDS = 15 * 60;
const RUN_BUDGET_MS = 10 * 60_000;

/** Rows deleted by one run, by table; null when another instance held the lock (or the store was unreachable). */
export type RetentionReport = Record<string, number> | null;

/**
 * Deletes rows that are of no more use, in small batches on a timer, one instance at a time (a lock in
 * the shared store, taken with setIfAbsent and a TTL so a crashed runner cannot hold it). Nothing here
 * runs on a request: the timer is unref'd, and a failure is logged and tried again at the next interval.
 */
export function createRetention(options: RetentionOptions) {
  const { rules, store } = options;
  const batchSize = options.batchSize ?? DEFAULTS.batchSize;
  const pauseMs = options.pauseMs ?? DEFAULTS.pauseMs;
  const intervalMs = options.intervalMs ?? DEFAULTS.intervalMs;
  const firstRunMs = options.firstRunMs ?? DEFAULTS.firstRunMs;
  const log = options.logger.child({ component: 'retention' });
  const owner = crypto.randomUUID();
  let timers: NodeJS.Timeout[] = [];
  let stopping = false;
  let running: Promise<RetentionReport> | null = null;

  /** Deletes one rule's rows, a batch at a time: the keys first, then those rows (portable: no DELETE … LIMIT on SQLite). */
  async function prune(rule: RetentionRule, now: Date, deadline: number): Promise<number> {
    const where = rule.expired(now);
    if (where === null) return 0;
    const key = rule.model.primaryKeyAttribute;
    let deleted = 0;
    while (!stopping && Date.now() < deadline) {
      const rows = await rule.model.findAll({ attributes: [key], where, limit: batchSize, raw: true });
      if (rows.length === 0) break;
      const ids = rows.map((row) => (row as unknown as Record<string, unknown>)[key]);
      // The condition again: a row that changed since it was read stays.
      deleted += await rule.model.destroy({ where: { [Op.and]: [{ [key]: ids }, where] } });
      if (rows.length < batchSize) break;
      await pause(pauseMs);
    }
    return deleted;
  }

  async function runLocked(): Promise<RetentionReport> {
    let locked: boolean;
    try {
      locked = await store.setIfAbsent(LOCK_KEY, owner, LOCK_SECONDS);
    } catch (err) {
      log.warn({ err: (err as Error).message }, 'retention skipped: the key-value store is unavailable');
      return null;
    }
    if (!locked) return null;
    const started = Date.now();
    const report: Record<string, number> = {};
    try {
      const now = new Date();
      for (const rule of rules) {
        if (stopping) break;
        report[rule.name] = await prune(rule, now, started + RUN_BUDGET_MS);
      }
      log.info({ deleted: report, ms: Date.now() - started }, 'retention run finished');
      return report;
    } finally {
      // Only a lock still ours: a run that outlived its lock must not free another instance's.
      if ((await store.get(LOCK_KEY).catch(() => null)) === owner) await store.delete(LOCK_KEY).catch(() => undefined);
    }
  }

  /** One run now, unless this process is already running one (then that run's report). */
  function runOnce(): Promise<RetentionReport> {
    running ??= runLocked().finally(() => {
      running = null;
    });
    return running;
  }

  function tick(): void {
    runOnce().catch((err: unknown) => log.error({ err: (err as Error).message }, 'retention run failed'));
  }

  /** Starts the timer (server.ts): a first run shortly after start, then one per interval. */
  function start(): void {
    stopping = false;
    timers = [setTimeout(tick, firstRunMs).unref(), setInterval(tick, intervalMs).unref()];
  }

  /** Stops the timer and waits for a run in progress to end its current batch (shutdown). */
  async function stop(): Promise<void> {
    stopping = true;
    for (const timer of timers) clearTimeout(timer);
    timers = [];
    await running?.catch(() => undefined);
  }

  return { runOnce, start, stop };
}

export type Retention = ReturnType<typeof createRetention>;

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
