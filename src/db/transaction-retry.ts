import { DatabaseError, UniqueConstraintError, type Sequelize, type Transaction, type TransactionOptions } from 'sequelize';

// MariaDB/MySQL: deadlock victim, lock wait timeout. The transaction was rolled back as a whole, so
// running it again is safe.
const RETRYABLE_MYSQL_ERRNOS = new Set([1213, 1205]);
/** The most a retry waits per attempt already made (ms), chosen at random below it. */
const RETRY_PAUSE_MS = 10;

/** A transaction the database gave up on for contention (deadlock victim, lock wait timeout): the client may try again. */
export function isContention(err: unknown): boolean {
  if (!(err instanceof DatabaseError)) return false;
  const errno = (err as DatabaseError & { parent?: { errno?: number } }).parent?.errno;
  return errno !== undefined && RETRYABLE_MYSQL_ERRNOS.has(errno);
}

function isRetryable(err: unknown, options: RetryOptions): boolean {
  if (options.retryOnUniqueViolation && err instanceof UniqueConstraintError) return true;
  if (options.retryWhen?.(err)) return true;
  return isContention(err);
}

export interface RetryOptions {
  attempts?: number;
  /** Also retry when a concurrent insert won a unique key (an upsert's "create" lost the race). */
  retryOnUniqueViolation?: boolean;
  /** Also retry on these errors of the caller's own (a precondition that moved under it). */
  retryWhen?: (err: unknown) => boolean;
  /** The transaction's own options (its isolation level, say). */
  transaction?: TransactionOptions;
}

/**
 * Runs `work` in a managed transaction and runs it again when the database chose it as a deadlock
 * victim. Row locks taken in a consistent order make deadlocks rare; this handles the rest (gap locks
 * of `SELECT … FOR UPDATE` on a missing row, for one). On SQLite transactions are IMMEDIATE, so
 * writers queue up and never deadlock.
 */
export async function transactionWithRetry<T>(
  sequelize: Sequelize,
  work: (transaction: Transaction) => Promise<T>,
  options: RetryOptions = {},
): Promise<T> {
  const attempts = options.attempts ?? 6;
  for (let attempt = 1; ; attempt++) {
    try {
      return await sequelize.transaction(options.transaction ?? {}, (transaction) => work(transaction));
    } catch (err) {
      if (attempt >= attempts || !isRetryable(err, options)) throw err;
      // A short random pause: writers that deadlocked together would otherwise meet again at once. Each
      // deadlock lets at least one of them through, so a handful of attempts serves a burst of five.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * RETRY_PAUSE_MS * attempt));
    }
  }
}
