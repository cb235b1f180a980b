import crypto from 'node:crypto';
import { Op, Transaction, type Sequelize } from 'sequelize';
import type { Logger } from 'pino';
import { transactionWithRetry } from '../../db/transaction-retry';
import type { Models } from '../../models';
import type { OutboxEntry, OutboxKind, OutboxStatus } from '../../models/outbox';

/**
 * What one attempt came to. `retry`: try again later (until the entry's day is over or what it carries
 * has expired); `failed`: never again (the endpoint answered 410, was deleted or disabled).
 */
export type AttemptOutcome =
  | { outcome: 'delivered'; responseStatus?: number }
  | { outcome: 'retry' | 'failed'; responseStatus?: number; error: string };

/** Delivers one entry of a kind; must not throw (a throw counts as `retry` with a generic error). */
export type OutboxHandler = (entry: OutboxEntry) => Promise<AttemptOutcome>;

export interface NewOutboxEntry {
  /** Given when the payload is bound to it (a mail's sealed body); a fresh one otherwise. */
  id?: string;
  kind: OutboxKind;
  eventType: string;
  payload: string;
  endpointId?: string | null;
  expiresAt?: Date | null;
  /**
   * Leased to this instance from the start: its first attempt is made here right away (`attemptNow`), without
   * waiting for a worker's poll; should this instance die first, the lease runs out and any worker takes it.
   */
  claimHere?: boolean;
}

export interface KindOptions {
  /** What the payload becomes once the entry is delivered or failed: what it carried is of no more use. */
  redactWhenDone?: (payload: string) => string;
}

/** The first retry comes within this (full jitter: anywhere below it); each later one may wait twice as long. */
const RETRY_BASE_MS = 5_000;
/** No single wait is longer than this. */
const RETRY_CAP_MS = 4 * 3_600_000;
/** CONTRACT 16: about a day of retries, then `failed`. */
const GIVE_UP_AFTER_MS = 24 * 3_600_000;
/** A claim is this instance's for this long; a dead instance's rows are claimed again after it. */
const LEASE_MS = 60_000;
/**
 * Rows claimed per round; their deliveries run side by side (webhook requests share kept-alive connections per
 * receiver). A round is as slow as its slowest attempt, so a hanging receiver holds up at most this many.
 */
const BATCH = 100;
/** Rounds in flight at once: the next claim need not wait for the slowest receiver of the round before. */
const MAX_ROUNDS = 3;
/** An idle worker polls after this, doubling up to IDLE_MAX_MS; a nudge (a commit here) or work resets it. */
const IDLE_MIN_MS = 200;
/**
 * The longest an idle worker waits: how late it sees a row another instance committed (no nudge reaches it) and
 * a retry come due. 5 s held the first of a burst of events from elsewhere past the 2 s delivery target (issue
 * 51); an idle poll is one indexed read of the pending rows, so once a second costs nothing to speak of.
 */
const IDLE_MAX_MS = 1_000;
const MAX_ERROR_LENGTH = 255;

/** The wait before attempt `attempts + 1`: exponential backoff with full jitter (AWS architecture blog). */
export function retryDelayMs(attempts: number, random: () => number = Math.random): number {
  const ceiling = Math.min(RETRY_CAP_MS, RETRY_BASE_MS * 2 ** Math.max(0, attempts - 1));
  return Math.floor(random() * ceiling);
}

/** A new entry's id: the `webhook-id` of a delivery, kept across its retries. */
export function newOutboxId(): string {
  return `msg_${crypto.randomBytes(16).toString('hex')}`;
}

/**
 * The transactional outbox (CONTRACT 16): work recorded in the transaction of the change it describes, and a
 * worker that claims due rows (MariaDB: FOR UPDATE SKIP LOCKED in a short transaction, then a lease, so
 * instances never attempt the same row at once and a dead one's rows come back; SQLite has one writer),
 * attempts them through the handler of their kind and records the outcome. Nothing is sent on a request path.
 */
export function createOutbox(deps: { sequelize: Sequelize; models: Models; logger: Logger; onAttempt?: (kind: OutboxKind, outcome: AttemptOutcome['outcome']) => void }) {
  const { sequelize, models } = deps;
  const log = deps.logger.child({ component: 'outbox' });
  const handlers = new Map<OutboxKind, { handler: OutboxHandler; options: KindOptions }>();
  const skipLocked = sequelize.getDialect() !== 'sqlite';
  const claimIsolation = skipLocked ? { isolationLevel: Transaction.ISOLATION_LEVELS.READ_COMMITTED } : {};

  let stopped = true;
  let timer: NodeJS.Timeout | undefined;
  let idleDelay = IDLE_MIN_MS;
  /** Rounds in flight: at most MAX_ROUNDS, so one round's claim overlaps another's deliveries. */
  const rounds = new Set<Promise<void>>();
  let rerun = false;

  /** Records entries in the caller's transaction; the worker of this instance looks as soon as it commits. */
  async function add(entries: NewOutboxEntry[], transaction?: Transaction | null): Promise<OutboxEntry[]> {
    if (entries.length === 0) return [];
    const now = new Date();
    const rows = entries.map((entry) => ({
      id: entry.id ?? newOutboxId(),
      kind: entry.kind,
      eventType: entry.eventType,
      payload: entry.payload,
      endpointId: entry.endpointId ?? null,
      expiresAt: entry.expiresAt ?? null,
      nextAttemptAt: now,
      claimedUntil: entry.claimHere ? new Date(now.getTime() + LEASE_MS) : null,
    }));
    const created = await models.OutboxEntry.bulkCreate(rows, { transaction: transaction ?? undefined });
    if (entries.some((entry) => !entry.claimHere)) {
      if (transaction) transaction.afterCommit(nudge);
      else nudge();
    }
    return created;
  }

  /**
   * Due, unclaimed rows, leased to this instance for LEASE_MS. On MariaDB in READ COMMITTED: under the default
   * REPEATABLE READ the locking scan also locks the index gap past the due rows, which is where every new row goes,
   * so each request firing an event waited for the claim (and under load one of them died in a deadlock). The rows
   * themselves stay locked until the lease is written, and SKIP LOCKED passes over another claim's and over rows
   * not yet committed, so no two instances take one row.
   */
  async function claim(): Promise<OutboxEntry[]> {
    // A deadlock with a round's outcome UPDATE (it locks rows, then their index entries; the claim the other way)
    // rolls the claim back: claimed again at once, not left for the next poll.
    return transactionWithRetry(sequelize, async (transaction) => {
      const now = new Date();
      const rows = await models.OutboxEntry.findAll({
        where: { status: 'pending', nextAttemptAt: { [Op.lte]: now }, [Op.or]: [{ claimedUntil: null }, { claimedUntil: { [Op.lt]: now } }] },
        order: [['nextAttemptAt', 'ASC']],
        limit: BATCH,
        transaction,
        ...(skipLocked ? { lock: transaction.LOCK.UPDATE, skipLocked: true } : {}),
      });
      if (rows.length > 0) {
        await models.OutboxEntry.update({ claimedUntil: new Date(now.getTime() + LEASE_MS) }, { where: { id: rows.map((row) => row.id) }, transaction });
      }
      return rows;
    }, { transaction: claimIsolation });
  }

  /** How one attempt went, and what the entry's row becomes. */
  interface Settled {
    entry: OutboxEntry;
    outcome: AttemptOutcome['outcome'];
    status: OutboxStatus;
    at: Date;
    nextAttemptAt: Date;
    responseStatus: number | null;
    error: string | null;
    payload?: string;
  }

  /** Attempts one entry this instance holds (never throws); nothing is written yet. */
  async function settle(entry: OutboxEntry): Promise<Settled> {
    const kind = handlers.get(entry.kind);
    let result: AttemptOutcome;
    try {
      if (entry.expiresAt && entry.expiresAt <= new Date()) result = { outcome: 'failed', error: 'expired: what it carries is no longer valid' };
      else result = kind ? await kind.handler(entry) : { outcome: 'retry', error: `no handler for ${entry.kind}` };
    } catch (err) {
      log.error({ id: entry.id, kind: entry.kind, err: { message: (err as Error).message } }, 'outbox handler threw');
      result = { outcome: 'retry', error: 'delivery failed' };
    }
    const at = new Date();
    let status: OutboxStatus = result.outcome === 'delivered' ? 'delivered' : 'failed';
    let nextAttemptAt = entry.nextAttemptAt;
    if (result.outcome === 'retry') {
      nextAttemptAt = new Date(at.getTime() + retryDelayMs(entry.attempts + 1));
      const giveUpAt = entry.expiresAt ?? new Date(entry.createdAt.getTime() + GIVE_UP_AFTER_MS);
      status = nextAttemptAt > giveUpAt ? 'failed' : 'pending';
    }
    const error = result.outcome === 'delivered' ? null : result.error.slice(0, MAX_ERROR_LENGTH);
    const redact = status !== 'pending' ? kind?.options.redactWhenDone : undefined;
    deps.onAttempt?.(entry.kind, status === 'failed' ? 'failed' : result.outcome);
    if (result.outcome !== 'delivered') log.warn({ id: entry.id, kind: entry.kind, type: entry.eventType, attempts: entry.attempts + 1, status, error }, 'outbox attempt failed');
    return { entry, outcome: result.outcome, status, at, nextAttemptAt, responseStatus: result.responseStatus ?? null, error, payload: redact?.(entry.payload) };
  }

  /**
   * Records attempts. Plain deliveries (the bulk of a busy round) that got the same answer share one UPDATE;
   * anything else (a retry's time, an error, a redacted payload) is written row by row. `attempts + 1` is
   * exact: the rows are this instance's (claimed) until this write releases them.
   */
  async function save(settled: Settled[]): Promise<void> {
    const plain = new Map<number | null, Settled[]>();
    const single: Settled[] = [];
    for (const one of settled) {
      if (one.status === 'delivered' && one.payload === undefined) plain.set(one.responseStatus, [...(plain.get(one.responseStatus) ?? []), one]);
      else single.push(one);
    }
    const released = { claimedUntil: null, attempts: sequelize.literal('attempts + 1') as unknown as number };
    // MariaDB: each UPDATE again when a claim's scan deadlocked with it (an outcome left unwritten would be sent
    // twice). SQLite's writers queue and never deadlock: a plain UPDATE, as one statement is its own transaction.
    const update = (values: Parameters<typeof models.OutboxEntry.update>[0], ids: string | string[]) =>
      skipLocked
        ? transactionWithRetry(sequelize, (transaction) => models.OutboxEntry.update(values, { where: { id: ids }, transaction }))
        : models.OutboxEntry.update(values, { where: { id: ids } });
    await Promise.all([
      ...[...plain].map(([responseStatus, group]) =>
        update({ ...released, status: 'delivered', lastAttemptAt: group[group.length - 1].at, responseStatus, lastError: null }, group.map((one) => one.entry.id)),
      ),
      ...single.map((one) =>
        update(
          {
            ...released,
            status: one.status,
            nextAttemptAt: one.nextAttemptAt,
            lastAttemptAt: one.at,
            responseStatus: one.responseStatus,
            lastError: one.error,
            ...(one.payload !== undefined ? { payload: one.payload } : {}),
          },
          one.entry.id,
        ),
      ),
    ]);
  }

  /** Attempts one entry this instance holds and records how it went; answers the entry's status after it. */
  async function attempt(entry: OutboxEntry): Promise<OutboxStatus> {
    const settled = await settle(entry);
    await save([settled]);
    return settled.status;
  }

  /**
   * One round: claims what is due, attempts it side by side and records the outcomes; the number of rows
   * attempted. `claimed` hears how many were claimed before the attempts start.
   */
  async function runOnce(claimed?: (count: number) => void): Promise<number> {
    const rows = await claim();
    claimed?.(rows.length);
    await save(await Promise.all(rows.map(settle)));
    return rows.length;
  }

  function schedule(ms: number): void {
    clearTimeout(timer);
    if (stopped) return;
    timer = setTimeout(tick, ms);
    timer.unref();
  }

  function tick(): void {
    if (rounds.size >= MAX_ROUNDS) {
      rerun = true;
      return;
    }
    rerun = false;
    // A full batch claimed: more may be due at once, so the next round claims while this one delivers.
    const round = runOnce((count) => {
      if (count >= BATCH) schedule(0);
    })
      .then(
        (count) => {
          // Poll later, less often while nothing comes.
          idleDelay = count > 0 ? IDLE_MIN_MS : Math.min(idleDelay * 2, IDLE_MAX_MS);
          if (count >= BATCH) rerun = true;
        },
        (err: unknown) => {
          log.error({ err: { message: (err as Error).message } }, 'outbox round failed');
          idleDelay = IDLE_MAX_MS;
        },
      )
      .finally(() => {
        rounds.delete(round);
        schedule(rerun ? 0 : idleDelay);
      });
    rounds.add(round);
  }

  /** Something was committed on this instance: look now rather than at the next poll. */
  function nudge(): void {
    idleDelay = IDLE_MIN_MS;
    if (stopped) return;
    if (rounds.size >= MAX_ROUNDS) rerun = true;
    else schedule(0);
  }

  /**
   * An entry attempted again now, keeping its id, with a fresh day of retries (an admin's "Resend"); an entry
   * whose content expires (a mail's code) keeps that bound.
   */
  async function again(id: string): Promise<void> {
    const entry = await models.OutboxEntry.findByPk(id);
    if (!entry) return;
    const now = new Date();
    const expiresAt = entry.kind === 'mail' ? entry.expiresAt : new Date(now.getTime() + GIVE_UP_AFTER_MS);
    await entry.update({ status: 'pending', nextAttemptAt: now, claimedUntil: null, expiresAt });
    nudge();
  }

  /** Pending entries by kind (the /metrics gauge). */
  async function pendingCounts(): Promise<Array<{ kind: string; count: number }>> {
    const rows = (await models.OutboxEntry.count({ where: { status: 'pending' }, group: ['kind'] })) as unknown as Array<{ kind: string; count: number | string }>;
    return rows.map((row) => ({ kind: row.kind, count: Number(row.count) }));
  }

  return {
    add,
    again,
    pendingCounts,
    runOnce,
    nudge,
    /**
     * The first attempt of an entry added with `claimHere`, made by this instance at once (after the commit of
     * the transaction that added it); later ones are the workers'. Answers the entry's status after it.
     */
    attemptNow: attempt,
    /** Registers how entries of a kind are delivered (one handler per kind). */
    handle(kind: OutboxKind, handler: OutboxHandler, options: KindOptions = {}): void {
      handlers.set(kind, { handler, options });
    },
    /** Starts polling (server.ts; tests that need deliveries). */
    start(): void {
      if (!stopped) return;
      stopped = false;
      schedule(0);
    },
    /** Stops polling; resolves when the round in progress has recorded its outcomes. */
    async stop(): Promise<void> {
      stopped = true;
      clearTimeout(timer);
      await Promise.all([...rounds]);
    },
  };
}

export type Outbox = ReturnType<typeof createOutbox>;
