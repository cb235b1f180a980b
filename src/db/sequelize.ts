import { Sequelize } from 'sequelize';
import type { Logger } from 'pino';
import { connectionOptions } from './connection-options';
import { routeReads } from './read-replicas';
import { oneAtATime } from '../util/one-at-a-time';
import { tableInfoCache } from './sqlite-table-info';
import { retryStatementsWhileBusy, type SqliteCallbackStatements } from './sqlite-busy';

/**
 * SQLite's page cache per connection, in KiB (a negative cache_size). The default, 2 MiB, holds no index of
 * a large users table, so every admin search read its pages again from the OS: at 100,000 users the scan of
 * the search index (13 MiB) took 19 ms against 13 ms from a cache that holds it. The cache fills only
 * with pages actually read.
 */
export const SQLITE_CACHE_KIB = 32 * 1024;

interface SqliteConnection extends SqliteCallbackStatements {
  exec(sql: string, ...rest: unknown[]): unknown;
}

interface SqliteConnectionManager {
  getConnection(options?: object): Promise<SqliteConnection>;
}

/**
 * One Sequelize instance for the process, from DATABASE_URL (SQLite file when unset), with DATABASE_READ_URLS
 * as MySQL read replicas: only reads that opt in go there (read-replicas.ts), everything else to the primary.
 */
export function createSequelize(databaseUrl: string | undefined, logger: Logger, readUrls: readonly string[] = []): Sequelize {
  const options = connectionOptions(databaseUrl);
  const server = (o: { host?: string; port?: number; username?: string; password?: string; database?: string }) => ({
    host: o.host,
    port: o.port,
    username: o.username,
    password: o.password,
    database: o.database,
  });
  const replicated = options.dialect === 'mysql' && readUrls.length > 0;
  const sequelize = new Sequelize({
    ...options,
    ...(replicated ? { replication: { write: server(options), read: readUrls.map((url) => server(connectionOptions(url))) } } : {}),
    // Off unless traced: Sequelize builds the log line of every statement it is given a function for.
    logging: logger.isLevelEnabled('trace') ? (sql: string) => logger.trace({ sql }, 'sql') : false,
    define: { ...(options.define ?? {}), underscored: true },
  });
  if (replicated) routeReads(sequelize);
  if (options.dialect === 'sqlite') {
    configureSqliteConnections(sequelize, options.storage !== ':memory:');
    serializeTransactions(sequelize);
  }
  return sequelize;
}

/**
 * Settings every SQLite connection gets as it opens (Sequelize opens one per transaction besides the
 * shared one). Without a wait for the lock, parallel writers fail with SQLITE_BUSY instead of waiting their
 * turn; they wait in short tries, between them on the main thread (sqlite-busy.ts). WAL lets readers proceed
 * during a write. Sequelize's SQLite dialect opens its connections without running the `afterConnect` hook, so
 * this wraps the step that opens them; it also has the connection answer the dialect's column-type questions
 * from memory (sqlite-table-info.ts).
 */
function configureSqliteConnections(sequelize: Sequelize, onDisk: boolean): void {
  const manager = (sequelize as unknown as { connectionManager: SqliteConnectionManager }).connectionManager;
  const open = manager.getConnection.bind(manager);
  // The shared connection is handed to every query: each waits for the one configuration of it.
  const configured = new WeakMap<SqliteConnection, Promise<void>>();
  const tableInfo = tableInfoCache();
  const configure = async (connection: SqliteConnection) => {
    retryStatementsWhileBusy(connection);
    tableInfo.attach(connection);
    const run = (sql: string) => new Promise<void>((resolve, reject) => connection.run(sql, (err: Error | null) => (err ? reject(err) : resolve())));
    await run(`PRAGMA cache_size = -${SQLITE_CACHE_KIB}`);
    if (onDisk) await run('PRAGMA journal_mode = WAL');
  };
  manager.getConnection = async (connectionOptions) => {
    const connection = await open(connectionOptions);
    let done = configured.get(connection);
    if (!done) {
      done = configure(connection);
      configured.set(connection, done);
    }
    await done;
    return connection;
  };
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
  const inTurn = oneAtATime();
  const queued = (...args: unknown[]): Promise<unknown> => {
    const managed = args.some((arg) => typeof arg === 'function');
    return managed ? inTurn(() => begin(...args)) : begin(...args);
  };
  sequelize.transaction = queued as Sequelize['transaction'];
}
