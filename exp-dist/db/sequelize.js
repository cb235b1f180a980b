"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.createSequelize = createSequelize;
const sequelize_1 = require("sequelize");
const connection_options_1 = require("./connection-options");
const SQLITE_BUSY_TIMEOUT_MS = 10_000;
/** One Sequelize instance for the process, from DATABASE_URL (SQLite file when unset). */
function createSequelize(databaseUrl, logger) {
    const options = (0, connection_options_1.connectionOptions)(databaseUrl);
    const sequelize = new sequelize_1.Sequelize({
        ...options,
        logging: (sql) => logger.trace({ sql }, 'sql'),
        define: { ...(options.define ?? {}), underscored: true },
    });
    if (options.dialect === 'sqlite') {
        // Sequelize opens one SQLite connection per transaction; without a busy timeout, parallel writers
        // fail with SQLITE_BUSY instead of waiting their turn. WAL lets readers proceed during a write.
        sequelize.addHook('afterConnect', (connection) => {
            const sqlite = connection;
            sqlite.configure('busyTimeout', SQLITE_BUSY_TIMEOUT_MS);
            if (options.storage !== ':memory:')
                sqlite.run('PRAGMA journal_mode = WAL');
        });
        serializeTransactions(sequelize);
    }
    return sequelize;
}
/**
 * SQLite admits one writer; IMMEDIATE transactions exclude each other, but a waiting BEGIN sleeps in
 * SQLite's busy handler on one of libuv's four pool threads. Enough parallel writers occupy every
 * thread with waiters while the holder cannot get one to COMMIT, until the busy timeout. So managed
 * transactions of this process queue here instead of waiting inside SQLite. (MariaDB waits on the server.)
 * A managed transaction must not open another one inside it: it would wait for itself.
 */
function serializeTransactions(sequelize) {
    const begin = sequelize.transaction.bind(sequelize);
    let tail = Promise.resolve();
    const queued = (...args) => {
        const managed = args.some((arg) => typeof arg === 'function');
        if (!managed)
            return begin(...args);
        const run = () => begin(...args);
        const result = tail.then(run, run);
        tail = result.catch(() => undefined);
        return result;
    };
    sequelize.transaction = queued;
}
//# sourceMappingURL=sequelize.js.map