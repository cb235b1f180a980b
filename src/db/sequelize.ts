import { Sequelize } from 'sequelize';
import type { Logger } from 'pino';
import { connectionOptions } from './connection-options';

const SQLITE_BUSY_TIMEOUT_MS = 10_000;

interface SqliteConnection {
  configure(option: 'busyTimeout', value: number): void;
  run(sql: string): void;
}

/** One Sequelize instance for the process, from DATABASE_URL (SQLite file when unset). */
export function createSequelize(databaseUrl: string | undefined, logger: Logger): Sequelize {
  const options = connectionOptions(databaseUrl);
  const sequelize = new Sequelize({
    ...options,
    logging: (sql: string) => logger.trace({ sql }, 'sql'),
    define: { ...(options.define ?? {}), underscored: true },
  });
  if (options.dialect === 'sqlite') {
    // Sequelize opens one SQLite connection per transaction; without a busy timeout, parallel writers
    // fail with SQLITE_BUSY instead of waiting their turn. WAL lets readers proceed during a write.
    sequelize.addHook('afterConnect', (connection) => {
      const sqlite = connection as unknown as SqliteConnection;
      sqlite.configure('busyTimeout', SQLITE_BUSY_TIMEOUT_MS);
      if (options.storage !== ':memory:') sqlite.run('PRAGMA journal_mode = WAL');
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
function serializeTransactions(sequelize: Sequelize): void {
  const begin = sequelize.transaction.bind(sequelize) as (...args: unknown[]) => Promise<unknown>;
  let tail: Promise<unknown> = Promise.resolve();
  const queued = (...args: unknown[]): Promise<unknown> => {
    const managed = args.some((arg) => typeof arg === 'function');
    if (!managed) return begin(...args);
    const run = () => begin(...args);
    const result = tail.then(run, run);
    tail = result.catch(() => undefined);
    return result;
  };
  sequelize.transaction = queued as Sequelize['transaction'];
}
