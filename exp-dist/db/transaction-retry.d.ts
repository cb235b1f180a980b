import { type Sequelize, type Transaction } from 'sequelize';
export interface RetryOptions {
    attempts?: number;
    /** Also retry when a concurrent insert won a unique key (an upsert's "create" lost the race). */
    retryOnUniqueViolation?: boolean;
}
/**
 * Runs `work` in a managed transaction and runs it again when the database chose it as a deadlock
 * victim. Row locks taken in a consistent order make deadlocks rare; this handles the rest (gap locks
 * of `SELECT … FOR UPDATE` on a missing row, for one). On SQLite transactions are IMMEDIATE, so
 * writers queue up and never deadlock.
 */
export declare function transactionWithRetry<T>(sequelize: Sequelize, work: (transaction: Transaction) => Promise<T>, options?: RetryOptions): Promise<T>;
