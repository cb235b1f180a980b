import crypto from 'node:crypto';
import { Op, type Sequelize } from 'sequelize';
import type { Logger } from 'pino';
import type { Models } from '../models';
import type { KeyValueStore } from '../store';
import { preparedStatements, type Statement } from '../db/prepared-statements';

const markKey = (id: string) => `revoked:${id}`;
/** Holds the generation of the revocation set last loaded from the database; absent: the store may be missing some. */
const LOADED_KEY = 'revoked:loaded';
/** One instance loads at a time; the lock outlives a crashed loader by this long at most. */
const LOADING_KEY = 'revoked:loading';
const LOAD_LOCK_SECONDS = 30;
const LOAD_BATCH = 500;
/** A request that finds the set incomplete waits at most this long for the load, then asks the database. */
const LOAD_WAIT_MS = 500;
/** How often a process looks for revocations another process could not copy to the store (it may have died). */
const AUDIT_INTERVAL_MS = 30_000;
const PRUNE_INTERVAL_MS = 60 * 60_000;
/** While this process holds revocations the store did not take, it retries the load this often. */
const REPAIR_INTERVAL_MS = 1000;

export interface RevocationCheck {
  revoked: boolean;
  /**
   * The generation of the complete revocation set in the store, or null when the store cannot vouch
   * for a "not revoked" (down, restarted empty, or missing a revocation). Cached verifications are
   * trusted only under the generation they were made in.
   */
  generation: string | null;
}

const now = () => Math.floor(Date.now() / 1000);

/** A revocation row, kept when the id has one already (a deferred revocation keeps its first start). */
const INSERT_REVOCATION = {
  sqlite: 'INSERT OR IGNORE INTO revoked_tokens (jti, expires_at, mirrored, effective_at) VALUES (?, ?, ?, ?)',
  mysql: 'INSERT IGNORE INTO revoked_tokens (jti, expires_at, mirrored, effective_at) VALUES (?, ?, ?, ?)',
};
const EFFECTIVE_AT = 'SELECT effective_at FROM revoked_tokens WHERE jti = ?';

/** A mark's value is when it takes effect (epoch seconds); "1" (long past) for one in effect at once. */
const markValue = (effectiveAt: number | null) => String(effectiveAt ?? 1);
const inEffect = (mark: string | null) => mark !== null && Number(mark) <= now();

/**
 * Revocations of single tokens (by `jti`) and of whole sign-ins (by session id `sid`: logout ends every token
 * a sign-in's refresh chain produced). Both are random UUIDs in one namespace. The database is the record (`revoked_tokens`), so nothing is
 * forgotten when Redis restarts empty; the store holds a copy for the hot path plus a marker saying the
 * copy is complete. A verification reads the token's mark and the marker in the same round trip as the
 * cache (`storeKeys`), so a healthy store costs no extra trip. When the marker is missing or this process
 * failed to copy a revocation, the set is reloaded from the database and the database answers meanwhile.
 */
export function createRevocations(deps: { models: Models; store: KeyValueStore; logger: Logger }) {
  const { models, store, logger } = deps;
  const log = logger.child({ component: 'revocations' });
  const sequelize = models.RevokedToken.sequelize as Sequelize;
  const statements = preparedStatements(sequelize);
  const insertRevocation = sequelize.getDialect() === 'sqlite' ? INSERT_REVOCATION.sqlite : INSERT_REVOCATION.mysql;
  /** This process's lock value: a lock it took while Redis was frozen may land after the answer timed out. */
  const owner = crypto.randomUUID();
  let loading: Promise<string | null> | null = null;
  let unmirrored = false;
  /** How often the set was found incomplete: a load clears `unmirrored` only if no new finding came during it. */
  let incompleteFindings = 0;
  let repairTimer: NodeJS.Timeout | null = null;
  let lastAudit = 0;
  let lastPrune = 0;
  // A mark the store acknowledged may be gone after a failover (the promoted replica had not received it):
  // trust no store "no" until a load has copied the database's set again, with a new generation.
  store.onPossibleLoss?.(() => markIncomplete());

  /** Keys the caller reads (in its one store round trip) and hands back to `check`: one mark per id, then the marker. */
  function storeKeys(ids: readonly string[]): string[] {
    return [...ids.map(markKey), LOADED_KEY];
  }

  async function isRevokedInDatabase(ids: readonly string[]): Promise<boolean> {
    const where = { jti: [...ids], [Op.or]: [{ effectiveAt: null }, { effectiveAt: { [Op.lte]: now() } }] };
    return (await models.RevokedToken.findOne({ where, attributes: ['jti'] })) !== null;
  }

  /** Copies every live revocation from the database into the store, then marks the copy complete. */
  async function load(): Promise<string | null> {
    if (!(await store.setIfAbsent(LOADING_KEY, owner, LOAD_LOCK_SECONDS)) && (await store.get(LOADING_KEY)) !== owner) return null;
    // Still incomplete while this load copies: until its last mark is written, a store "no" proves nothing.
    const findings = incompleteFindings;
    try {
      await prune();
      let after = '';
      let count = 0;
      const copied: string[] = [];
      for (;;) {
        const rows = await models.RevokedToken.findAll({
          where: { jti: { [Op.gt]: after }, expiresAt: { [Op.gt]: now() } },
          order: [['jti', 'ASC']],
          limit: LOAD_BATCH,
        });
        if (rows.length === 0) break;
        await Promise.all(rows.map((row) => store.set(markKey(row.jti), markValue(row.effectiveAt), Math.max(1, row.expiresAt - now()))));
        copied.push(...rows.filter((row) => !row.mirrored).map((row) => row.jti));
        count += rows.length;
        after = rows[rows.length - 1].jti;
      }
      if (copied.length > 0) await models.RevokedToken.update({ mirrored: true }, { where: { jti: copied } });
      const generation = crypto.randomUUID();
      await store.set(LOADED_KEY, generation);
      // A finding during the copy (a lost connection, a mark this process could not write) may postdate a
      // read above: it needs another load.
      if (incompleteFindings === findings) unmirrored = false;
      log.info({ count }, 'revocations loaded into the key-value store');
      return generation;
    } finally {
      // Only a lock still ours: a load that overran the lock must not free another process's lock.
      if ((await store.get(LOADING_KEY).catch(() => null)) === owner) await store.delete(LOADING_KEY).catch(() => undefined);
    }
  }

  /** Starts a load unless this process is already running one; resolves to the new generation, or null. */
  function scheduleLoad(): Promise<string | null> {
    loading ??= load()
      .catch((err: unknown) => {
        log.warn({ err: (err as Error).message }, 'could not load revocations into the key-value store');
        return null;
      })
      .finally(() => {
        loading = null;
        if (!unmirrored && repairTimer) {
          clearInterval(repairTimer);
          repairTimer = null;
        }
      });
    return loading;
  }

  async function prune(): Promise<void> {
    lastPrune = Date.now();
    await models.RevokedToken.destroy({ where: { expiresAt: { [Op.lte]: now() } } });
  }

  /** Now and then, off the request path: another process's uncopied revocation triggers a load; old rows go. */
  function audit(): void {
    if (Date.now() - lastAudit < AUDIT_INTERVAL_MS) return;
    lastAudit = Date.now();
    void (async () => {
      if (Date.now() - lastPrune >= PRUNE_INTERVAL_MS) await prune();
      if (await models.RevokedToken.findOne({ where: { mirrored: false }, attributes: ['jti'] })) await scheduleLoad();
    })().catch(() => undefined);
  }

  function waitBriefly(promise: Promise<string | null>): Promise<string | null> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), LOAD_WAIT_MS);
    });
    return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
  }

  /**
   * Whether any of the ids (a token's jti, its session's sid) is revoked, from the values of `storeKeys`
   * (null: the store failed). The store's "no" counts only under a complete set; otherwise the database
   * decides. Call it with claims whose signature is checked: an unknown answer costs a database read.
   */
  async function check(ids: readonly string[], values: Array<string | null> | null): Promise<RevocationCheck> {
    if (values) {
      const generation = values[ids.length] ?? null;
      if (values.slice(0, ids.length).some(inEffect)) return { revoked: true, generation };
      if (generation && !unmirrored) {
        audit();
        return { revoked: false, generation };
      }
    }
    // The store is down or incomplete: a reachable store is refilled (briefly awaited), the database answers.
    const [revoked, generation] = await Promise.all([isRevokedInDatabase(ids), values ? waitBriefly(scheduleLoad()) : null]);
    return { revoked, generation };
  }

  /** Whether any of the ids is revoked, with a store read of its own (refresh, which is not on the hot path). */
  async function isRevoked(ids: readonly string[]): Promise<boolean> {
    const values = await store.getMany(storeKeys(ids)).catch(() => null);
    return (await check(ids, values)).revoked;
  }

  /**
   * Records the revocation of a jti or sid until `expiresAt` (epoch seconds), in effect from `effectiveAt`
   * (a superseded token's reuse window) or at once. The store first, so the row knows whether
   * the copy exists; a store failure never fails the logout: the row holds, and this process reloads
   * the store as soon as it answers again (other processes find the row within AUDIT_INTERVAL_MS).
   *
   * A deferred revocation keeps the start it was first given (CONTRACT 8: the reuse window never moves):
   * set-if-absent in the store, insert-if-absent in the database, and when the database already held an
   * earlier start (the store lost its mark: restarted, failed over) the store is given that start back.
   * An immediate one overrides a pending start in both.
   *
   * `alongside`: the caller's own writes, committed with the row in one commit (a refresh's session row and
   * activity entry): all of them or none.
   */
  async function revoke(id: string, expiresAt: number, effectiveAt: number | null = null, alongside: readonly Statement[] = []): Promise<void> {
    const key = markKey(id);
    const ttl = Math.max(1, expiresAt - now());
    let mirrored = true;
    try {
      if (effectiveAt === null) await store.set(key, markValue(null), ttl);
      else await store.setIfAbsent(key, markValue(effectiveAt), ttl);
    } catch (err) {
      mirrored = false;
      log.warn({ err: (err as Error).message }, 'key-value store unavailable: revocation kept in the database, copied later');
    }
    const row: Statement = { sql: insertRevocation, values: [id, expiresAt, mirrored ? 1 : 0, effectiveAt] };
    if (alongside.length === 0) await statements.write(row.sql, row.values);
    else await statements.writeAll([row, ...alongside]);
    if (effectiveAt === null) {
      await models.RevokedToken.update({ effectiveAt: null }, { where: { jti: id, effectiveAt: { [Op.ne]: null } } });
    } else if (mirrored) {
      const [recorded] = await statements.select<{ effective_at: number | string | null }>(EFFECTIVE_AT, [id]);
      const recordedAt = recorded?.effective_at === null || recorded === undefined ? null : Number(recorded.effective_at);
      if (recorded && recordedAt !== effectiveAt) {
        await store.set(key, markValue(recordedAt), ttl).catch(() => {
          mirrored = false;
        });
      }
    }
    // Only now: a load that starts after this point is sure to read the row.
    if (!mirrored) markIncomplete();
  }

  /**
   * The store missed a write this process needed (a revocation mark, a user's new version): until a load
   * succeeds this process trusts no store "no" and no cached verification, and that load's new generation
   * voids every cached verification on every instance.
   */
  function markIncomplete(): void {
    unmirrored = true;
    incompleteFindings++;
    repairTimer ??= setInterval(() => void scheduleLoad(), REPAIR_INTERVAL_MS).unref();
  }

  return { storeKeys, check, isRevoked, revoke, markIncomplete };
}

export type Revocations = ReturnType<typeof createRevocations>;
