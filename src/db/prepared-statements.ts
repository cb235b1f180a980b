import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import { sqlDate } from './sql-date';
import { withLiterals, type StatementValue } from './sql-literals';
import { transactionWithRetry } from './transaction-retry';
import { SQLITE_CACHE_KIB } from './sequelize';
import { LOCK_TRY_MS, retryWhileBusy } from './sqlite-busy';
import { oneAtATime } from '../util/one-at-a-time';

export type { StatementValue };

/** One hand-written write: its SQL with `?` placeholders and the values bound to them. */
export interface Statement {
  sql: string;
  values: readonly StatementValue[];
}

/** What a write did: the rows it changed and, for an INSERT into a table with an integer key, the new row's id. */
export interface WriteResult {
  changes: number;
  lastId: number | null;
}

export interface PreparedStatements {
  /** Rows of a SELECT, as the driver returns them (column names as written in the statement). */
  select<T extends object>(sql: string, values: readonly StatementValue[]): Promise<T[]>;
  /** An INSERT, UPDATE or DELETE; in `transaction` when given (then through Sequelize, on the transaction's connection). */
  write(sql: string, values: readonly StatementValue[], options?: { transaction?: Transaction }): Promise<WriteResult>;
  /** Writes that all commit, in one commit, or none does. */
  writeAll(statements: readonly Statement[]): Promise<void>;
}

interface SqliteStatement {
  all(values: unknown[], callback: (err: Error | null, rows: unknown[]) => void): void;
  run(values: unknown[], callback: (this: { changes: number; lastID: number }, err: Error | null) => void): void;
  finalize(callback?: () => void): void;
}

interface SqliteDatabase {
  configure(option: 'busyTimeout', value: number): void;
  prepare(sql: string, callback: (err: Error | null) => void): SqliteStatement;
  exec(sql: string, callback: (err: Error | null) => void): void;
  close(callback: (err: Error | null) => void): void;
}

interface SqliteModule {
  Database: new (file: string, callback: (err: Error | null) => void) => SqliteDatabase;
}

/**
 * Statements prepared once and kept, per SQL text: past this many texts a statement is prepared per call. The
 * hot paths hold about a dozen constant texts.
 */
const KEPT_STATEMENTS = 64;

const instances = new WeakMap<Sequelize, PreparedStatements>();

/**
 * The hot paths' hand-written statements (issue 51): every sign-in's SSO domain and user reads and the session
 * row, activity row and hourly count it commits together; every token check's user read on a cache miss.
 *
 * On a SQLite file they run on a connection of their own, as statements prepared once: `sequelize.query` builds
 * a new native statement for each call, captures a stack trace and formats the SQL (about 0.2 ms of main-thread
 * CPU per statement on the bench host). `writeAll` is one `exec` (BEGIN IMMEDIATE … COMMIT) there: one job on the
 * thread pool holds the write lock from BEGIN to COMMIT, so the lock is never held while waiting for a thread,
 * and one WAL sync serves the three rows. On MariaDB (and an in-memory SQLite, which has one connection) they go
 * through `sequelize.query` and a managed transaction. One set per Sequelize instance; closed with it.
 */
export function preparedStatements(sequelize: Sequelize): PreparedStatements {
  let statements = instances.get(sequelize);
  if (!statements) {
    const storage = (sequelize as unknown as { options: { storage?: string } }).options.storage;
    statements = sequelize.getDialect() === 'sqlite' && storage && storage !== ':memory:' ? sqliteStatements(sequelize, storage) : queryStatements(sequelize);
    instances.set(sequelize, statements);
  }
  return statements;
}

const isInsert = (sql: string) => /^\s*insert/i.test(sql);

/**
 * Dates as the models write them (sql-date.ts): on SQLite UTC text with its offset, so rows read the same either
 * way; on MariaDB with their milliseconds, which Sequelize's own escaping of a Date drops.
 */
function datesAsText(sequelize: Sequelize, values: readonly StatementValue[]): Array<Exclude<StatementValue, Date>> {
  return values.map((value) => (value instanceof Date ? sqlDate(sequelize, value) : value));
}

function queryStatements(sequelize: Sequelize): PreparedStatements {
  const statements: PreparedStatements = {
    select: <T extends object>(sql: string, values: readonly StatementValue[]) => sequelize.query<T>(sql, { replacements: datesAsText(sequelize, values), type: QueryTypes.SELECT }),
    async write(sql, values, options = {}) {
      const replacements = datesAsText(sequelize, values);
      const { transaction } = options;
      // Both dialects answer an INSERT with [insert id, rows changed] and an UPDATE or DELETE with [, rows changed].
      if (isInsert(sql)) {
        const [id, changes] = (await sequelize.query(sql, { replacements, type: QueryTypes.INSERT, transaction })) as [unknown, unknown];
        return { changes: Number(changes), lastId: Number(id) || null };
      }
      const [, changes] = (await sequelize.query(sql, { replacements, type: QueryTypes.UPDATE, transaction })) as [unknown, unknown];
      return { changes: Number(changes), lastId: null };
    },
    async writeAll(writes) {
      await transactionWithRetry(sequelize, async (transaction) => {
        for (const { sql, values } of writes) await statements.write(sql, values, { transaction });
      });
    },
  };
  return statements;
}

function sqliteStatements(sequelize: Sequelize, storage: string): PreparedStatements {
  const viaQuery = queryStatements(sequelize);
  const sqlite = (sequelize as unknown as { connectionManager: { lib: SqliteModule } }).connectionManager.lib;
  const options = (sequelize as unknown as { options: { logging?: unknown } }).options;
  const kept = new Map<string, SqliteStatement>();
  let connection: Promise<SqliteDatabase> | undefined;

  const exec = (database: SqliteDatabase, sql: string) => new Promise<void>((resolve, reject) => database.exec(sql, (err) => (err ? reject(err) : resolve())));

  /**
   * The connection of these statements alone, not Sequelize's shared one: waiting in SQLite's busy handler for a
   * write lock that a managed transaction holds, a statement keeps its connection's mutex, and that transaction's
   * own reads on the shared connection (Sequelize reads some there) would wait for it until the busy timeout.
   */
  function open(): Promise<SqliteDatabase> {
    connection ??= new Promise<SqliteDatabase>((resolve, reject) => {
      const database: SqliteDatabase = new sqlite.Database(storage, (err) => (err ? reject(err) : resolve(database)));
    }).then(async (database) => {
      database.configure('busyTimeout', LOCK_TRY_MS);
      // As Sequelize's connections: foreign keys enforced, the same page cache (the users' index is read here).
      await exec(database, `PRAGMA foreign_keys = ON; PRAGMA cache_size = -${SQLITE_CACHE_KIB}`);
      return database;
    });
    connection.catch(() => (connection = undefined));
    return connection;
  }

  /** To the query log as Sequelize writes it (values inlined), read at each call: a test may swap the log in for a while. */
  function log(sql: string, values: readonly StatementValue[]): void {
    if (typeof options.logging === 'function') (options.logging as (sql: string) => void)(withLiterals(sequelize, sql, values));
  }

  /** The statement for a text (kept), and whether it is to be finalized after this one call. */
  async function statement(sql: string): Promise<{ statement: SqliteStatement; once: boolean }> {
    const found = kept.get(sql);
    if (found) return { statement: found, once: false };
    const database = await open();
    // Kept once prepared: a text that fails to prepare answers its error and is prepared again at its next call.
    const made = await new Promise<SqliteStatement>((resolve, reject) => {
      const preparing = database.prepare(sql, (err) => (err ? reject(err) : resolve(preparing)));
    });
    if (kept.size >= KEPT_STATEMENTS) return { statement: made, once: true };
    kept.set(sql, made);
    return { statement: made, once: false };
  }

  /*
   * One call at a time on the pool. The connection runs one statement at a time anyway (its mutex), but a kept
   * statement's call goes to the pool at once, not through the connection's queue: parallel calls filled the
   * pool's four threads with jobs waiting on that mutex, one of them in the busy handler for a write lock held by
   * a transaction, which then found no thread for its next statement, and every sign-in stalled (measured: 16
   * parallel sign-ins at PBKDF2 10,000). Queued here, they wait on the main thread and leave the other threads
   * free. It also keeps every statement out of a `writeAll` transaction on the same connection.
   */
  const inTurn = oneAtATime();

  /**
   * A write in its turn, tried again after a pause while another connection holds the lock (sqlite-busy.ts):
   * each try lets go of the queue, so a transaction holding the lock can read through these statements.
   */
  const writeInTurn = <T>(work: () => Promise<T>): Promise<T> => retryWhileBusy(() => inTurn(work));

  const close = sequelize.close.bind(sequelize);
  sequelize.close = async () => {
    const finalizing = [...kept.values()].map((used) => new Promise<void>((resolve) => used.finalize(() => resolve())));
    kept.clear();
    await Promise.all(finalizing);
    const database = await connection?.catch(() => undefined);
    connection = undefined;
    if (database) await new Promise<void>((resolve) => database.close(() => resolve()));
    return close();
  };

  return {
    select<T extends object>(sql: string, values: readonly StatementValue[]): Promise<T[]> {
      log(sql, values);
      return inTurn(async () => {
        const { statement: used, once } = await statement(sql);
        return new Promise<T[]>((resolve, reject) =>
          used.all(datesAsText(sequelize, values), (err, rows) => {
            if (once) used.finalize();
            if (err) reject(err);
            else resolve(rows as T[]);
          }),
        );
      });
    },
    async write(sql, values, options = {}) {
      if (options.transaction) return viaQuery.write(sql, values, options);
      log(sql, values);
      const insert = isInsert(sql);
      return writeInTurn(async () => {
        const { statement: used, once } = await statement(sql);
        return new Promise<WriteResult>((resolve, reject) =>
          used.run(datesAsText(sequelize, values), function (this: { changes: number; lastID: number }, err) {
            if (once) used.finalize();
            if (err) reject(err);
            // lastID is the connection's last insert whatever the statement: only an INSERT's is its own.
            else resolve({ changes: this.changes, lastId: insert ? this.lastID : null });
          }),
        );
      });
    },
    async writeAll(writes) {
      // exec binds nothing: the values go in as literals, escaped as sequelize.query sends every replacement on SQLite.
      const statements = ['BEGIN IMMEDIATE', ...writes.map(({ sql, values }) => withLiterals(sequelize, sql, values)), 'COMMIT'];
      if (typeof options.logging === 'function') for (const one of statements) (options.logging as (sql: string) => void)(one);
      await writeInTurn(async () => {
        const database = await open();
        try {
          await exec(database, `${statements.join('; ')};`);
        } catch (err) {
          // exec stops at the failing statement: a transaction it began ends here, before the next call.
          await exec(database, 'ROLLBACK').catch(() => undefined);
          throw err;
        }
      });
    },
  };
}
