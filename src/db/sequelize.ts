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
  }
  return sequelize;
}
