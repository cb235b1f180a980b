import { QueryTypes, type Sequelize } from 'sequelize';
import type { Logger } from 'pino';
import { transactionWithRetry } from '../../db/transaction-retry';

/** Users whose trigrams one transaction writes: about 45,000 index rows, a quarter of a second on either database. */
const FILL_BATCH = 1000;
/** How often each instance looks for users left pending (an import cut short by a crash, another instance's import). */
const POLL_MS = 30_000;
/**
 * The fill starts this long after the last import here ends: a large import sent in parts (the bench sends a
 * million in four) begins its next part first, and the fill does not compete with it.
 */
const AFTER_IMPORT_MS = 2_000;

/**
 * The trigrams of pending users, sliced as the insert trigger slices a user's text (migration 20261126600000):
 * bytes on MariaDB, ASCII-lowered characters on SQLite. A trigram the user holds already (an update of a
 * pending user writes its new text's trigrams through the update trigger) is skipped.
 */
const GRAMS_OF_PENDING = {
  mysql: `INSERT IGNORE INTO user_search_grams (gram, created_at, user_id)
    SELECT SUBSTRING(u.search_text, p.n, 3), u.created_at, u.id FROM users u JOIN user_search_positions p ON p.n <= LENGTH(u.search_text) - 2
    WHERE u.id IN (:ids) AND u.search_pending = 1`,
  sqlite: `INSERT OR IGNORE INTO user_search_grams (gram, created_at, user_id)
    SELECT lower(substr(u.search_text, p.n, 3)), u.created_at, u.id FROM users u JOIN user_search_positions p ON p.n <= length(u.search_text) - 2
    WHERE u.id IN (:ids) AND u.search_pending = 1`,
};

/**
 * Writes the search trigrams of imported users after their import (migration 20261128007000): the oldest
 * pending users first, a batch per transaction, each batch's flag cleared in the transaction that writes its
 * trigrams. The search finds pending users meanwhile (user-search.ts), so this only makes their search fast.
 * Any instance may fill: two filling the same users write nothing twice (the INSERT skips what exists).
 * Nothing here runs on a request: an import holds the fill while it writes, and starts it when it ends.
 */
export function createSearchIndexFill(deps: { sequelize: Sequelize; logger: Logger }) {
  const { sequelize } = deps;
  const log = deps.logger.child({ component: 'search-index-fill' });
  const gramsOfPending = GRAMS_OF_PENDING[sequelize.getDialect() === 'mysql' ? 'mysql' : 'sqlite'];
  let imports = 0;
  let stopping = false;
  let running: Promise<number> | null = null;
  let poll: NodeJS.Timeout | undefined;
  let soon: NodeJS.Timeout | undefined;

  async function fillBatch(): Promise<number> {
    const rows = await sequelize.query<{ id: string }>('SELECT id FROM users WHERE search_pending = 1 ORDER BY created_at, id LIMIT :limit', {
      replacements: { limit: FILL_BATCH },
      type: QueryTypes.SELECT,
    });
    if (rows.length === 0) return 0;
    const ids = rows.map((row) => row.id);
    await transactionWithRetry(sequelize, async (transaction) => {
      await sequelize.query(gramsOfPending, { replacements: { ids }, transaction });
      await sequelize.query('UPDATE users SET search_pending = 0 WHERE id IN (:ids) AND search_pending = 1', { replacements: { ids }, transaction });
    });
    return ids.length;
  }

  async function fillUntilDone(): Promise<number> {
    let filled = 0;
    try {
      while (!stopping && imports === 0) {
        const batch = await fillBatch();
        filled += batch;
        if (batch < FILL_BATCH) break;
      }
    } catch (err) {
      // Left pending: found by the search meanwhile, filled at the next poll.
      log.warn({ err: (err as Error).message, filled }, 'search index fill stopped');
    }
    if (filled > 0) log.info({ filled }, 'search index filled');
    return filled;
  }

  /** Fills until no user is pending, an import begins here or the service stops; answers how many users it filled. */
  function fill(): Promise<number> {
    // Cleared in a later turn (`finally` never runs before the assignment, even when nothing is awaited).
    running ??= fillUntilDone().finally(() => {
      running = null;
    });
    return running;
  }

  function fillSoon(): void {
    clearTimeout(soon);
    soon = setTimeout(() => void fill(), AFTER_IMPORT_MS).unref();
  }

  /** Runs an import's writes with the fill held, then starts the fill: the import's users are indexed after it. */
  async function during<T>(work: () => Promise<T>): Promise<T> {
    imports += 1;
    try {
      return await work();
    } finally {
      imports -= 1;
      if (imports === 0 && !stopping) fillSoon();
    }
  }

  function start(): void {
    stopping = false;
    fillSoon();
    poll = setInterval(() => void fill(), POLL_MS).unref();
  }

  /** Stops starting batches; resolves once the batch in progress has committed. */
  async function stop(): Promise<void> {
    stopping = true;
    clearInterval(poll);
    clearTimeout(soon);
    await running;
  }

  return { fill, during, start, stop };
}

export type SearchIndexFill = ReturnType<typeof createSearchIndexFill>;
