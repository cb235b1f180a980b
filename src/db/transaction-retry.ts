import { DatabaseError, UniqueConstraintError, type Sequelize, type Transaction } from 'sequelize';

// MariaDB/MySQL: deadlock victim, lock wait timeout. The transaction was rolled back as a whole, so
// running it again is safe.
const RETRYABLE_MYSQL_ERRNOS = new Set([1213, 1205]);

function isRetryable(err: unknown, options: RetryOptions): boolean {
  if (options.retryOnUniqueViolation && err instanceof UniqueConstraintError) return true;
  if (options.retryWhen?.(err)) return true;
  if (!(err instanceof DatabaseError)) return false;
  const errno = (err as DatabaseError & { parent?: { errno?: number } }).parent?.errno;
  return errno !== undefined && RETRYABLE_MYSQL_ERRNOS.has(errno);
}

export interface RetryOptions {
  attempts?: number;
  /** Also retry when a concurrent insert won a unique key (an upsert's "create" lost the race). */
  retryOnUniqueViolation?: boolean;
  /** Also retry on these errors of the caller's own (a precondition that moved under it). */
  retryWhen?: (err: unknown) => boolean;
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
  const attempts = options.attempts ?? 3;
  for (let attempt = 1; ; attempt++) {
    try {
      return await sequelize.transaction((transaction) => work(transaction));
    } catch (err) {
      if (attempt >= attempts || !isRetryable(err, options)) throw err;
    }
  }
}
