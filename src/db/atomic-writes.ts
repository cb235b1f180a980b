import type { Sequelize } from 'sequelize';
import { preparedStatements } from './prepared-statements';
import { withLiterals, type StatementValue } from './sql-literals';
import { transactionWithRetry } from './transaction-retry';

/** One hand-written write: its SQL with `?` placeholders and the values bound to them. */
export interface Statement {
  sql: string;
  values: readonly StatementValue[];
}

/** Writes statements so that all of them commit, in one commit, or none does. */
export type AtomicWrites = (statements: readonly Statement[]) => Promise<void>;

interface SqliteDatabase {
  configure(option: 'busyTimeout', value: number): void;
  exec(sql: string, callback: (err: Error | null) => void): void;
  close(callback: (err: Error | null) => void): void;
}

interface SqliteModule {
  Database: new (file: string, callback: (err: Error | null) => void) => SqliteDatabase;
}

/** As long as the shared connections wait for the write lock (sequelize.ts). */
const BUSY_TIMEOUT_MS = 10_000;

const instances = new WeakMap<Sequelize, AtomicWrites>();

/**
 * Every sign-in's session row, activity row and its hourly count commit together (issue 51): one commit, so one
 * WAL sync on SQLite and one redo-log flush on MariaDB instead of three.
 *
 * On a SQLite file they run as one `exec` (BEGIN IMMEDIATE … COMMIT) on a connection kept for these writes alone.
 * One job on the thread pool holds the write lock from BEGIN to COMMIT, so no other statement ever runs inside
 * this transaction, and the lock is never held while this transaction waits for a pool thread (a Sequelize
 * transaction holds it across jobs; enough waiters on the pool's four threads could stall it until the busy
 * timeout). `exec` binds no parameters: the values are written as literals with Sequelize's own escaping, which
 * is how `sequelize.query` sends every replacement on SQLite. Elsewhere (MariaDB, an in-memory SQLite) the
 * statements run in a managed transaction.
 */
export function atomicWrites(sequelize: Sequelize): AtomicWrites {
  let writes = instances.get(sequelize);
  if (!writes) {
    const storage = (sequelize as unknown as { options: { storage?: string } }).options.storage;
    writes = sequelize.getDialect() === 'sqlite' && storage && storage !== ':memory:' ? sqliteWrites(sequelize, storage) : transactionWrites(sequelize);
    instances.set(sequelize, writes);
  }
  return writes;
}

function transactionWrites(sequelize: Sequelize): AtomicWrites {
  const statements = preparedStatements(sequelize);
  return async (writes) => {
    await transactionWithRetry(sequelize, async (transaction) => {
      for (const { sql, values } of writes) await statements.write(sql, values, { transaction });
    });
  };
}

function sqliteWrites(sequelize: Sequelize, storage: string): AtomicWrites {
  const manager = (sequelize as unknown as { connectionManager: { lib: SqliteModule } }).connectionManager;
  let kept: Promise<SqliteDatabase> | undefined;

  const run = (connection: SqliteDatabase, sql: string) => new Promise<void>((resolve, reject) => connection.exec(sql, (err) => (err ? reject(err) : resolve())));

  function open(): Promise<SqliteDatabase> {
    kept ??= new Promise<SqliteDatabase>((resolve, reject) => {
      const connection: SqliteDatabase = new manager.lib.Database(storage, (err) => (err ? reject(err) : resolve(connection)));
    }).then(async (connection) => {
      connection.configure('busyTimeout', BUSY_TIMEOUT_MS);
      // As Sequelize's own connections: foreign keys enforced. Its page cache stays small: it only ever writes.
      await run(connection, 'PRAGMA foreign_keys = ON; PRAGMA cache_size = -512');
      return connection;
    });
    kept.catch(() => (kept = undefined));
    return kept;
  }

  const close = sequelize.close.bind(sequelize);
  sequelize.close = async () => {
    const connection = await kept?.catch(() => undefined);
    kept = undefined;
    if (connection) await new Promise<void>((resolve) => connection.close(() => resolve()));
    return close();
  };

  return async (writes) => {
    const connection = await open();
    const statements = ['BEGIN IMMEDIATE', ...writes.map(({ sql, values }) => withLiterals(sequelize, sql, values)), 'COMMIT'];
    // Read at each call: a test may swap the query log in for a while.
    const logging = (sequelize as unknown as { options: { logging?: unknown } }).options.logging;
    if (typeof logging === 'function') for (const statement of statements) (logging as (sql: string) => void)(statement);
    const script = `${statements.join('; ')};`;
    try {
      await run(connection, script);
    } catch (err) {
      // exec stops at the failing statement: a transaction it began is ended here (nothing else uses this connection).
      await run(connection, 'ROLLBACK').catch(() => undefined);
      throw err;
    }
  };
}
