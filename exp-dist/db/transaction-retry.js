"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.transactionWithRetry = transactionWithRetry;
const sequelize_1 = require("sequelize");
// MariaDB/MySQL: deadlock victim, lock wait timeout. The transaction was rolled back as a whole, so
// running it again is safe.
const RETRYABLE_MYSQL_ERRNOS = new Set([1213, 1205]);
function isRetryable(err, retryOnUniqueViolation) {
    if (retryOnUniqueViolation && err instanceof sequelize_1.UniqueConstraintError)
        return true;
    if (!(err instanceof sequelize_1.DatabaseError))
        return false;
    const errno = err.parent?.errno;
    return errno !== undefined && RETRYABLE_MYSQL_ERRNOS.has(errno);
}
/**
 * Runs `work` in a managed transaction and runs it again when the database chose it as a deadlock
 * victim. Row locks taken in a consistent order make deadlocks rare; this handles the rest (gap locks
 * of `SELECT … FOR UPDATE` on a missing row, for one). On SQLite transactions are IMMEDIATE, so
 * writers queue up and never deadlock.
 */
async function transactionWithRetry(sequelize, work, options = {}) {
    const attempts = options.attempts ?? 3;
    for (let attempt = 1;; attempt++) {
        try {
            return await sequelize.transaction((transaction) => work(transaction));
        }
        catch (err) {
            if (attempt >= attempts || !isRetryable(err, options.retryOnUniqueViolation === true))
                throw err;
        }
    }
}
//# sourceMappingURL=transaction-retry.js.map