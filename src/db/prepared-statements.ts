import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import { sqlDate } from './sql-date';
import { withLiterals, type StatementValue } from './sql-literals';

export type { StatementValue };

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
}

interface SqliteStatement {
  all(values: unknown[], callback: (err: Error | null, rows: unknown[]) => void): void;
  run(values: unknown[], callback: (this: { changes: number; lastID: number }, err: Error | null) => void): void;
  finalize(callback?: () => void): void;
}

interface SqliteDatabase {
  prepare(sql: string, callback: (err: Error | null) => void): SqliteStatement;
}

/**
 * Statements prepared once and kept, per SQL text: past this many texts a statement is prepared per call. The
 * hot paths hold about a dozen constant texts.
 */
const KEPT_STATEMENTS = 64;

const instances = new WeakMap<Sequelize, PreparedStatements>();

/**
 * The hot paths' hand-written statements (every sign-in's user read, session and activity rows; every token
 * check's user read on a cache miss). On SQLite they run on Sequelize's own shared connection as statements
 * prepared once: `sequelize.query` builds a new native statement for each call, captures a stack trace and
 * formats the SQL (about 0.2 ms of main-thread CPU per statement on the bench host, five statements per
 * sign-in; issue 51). The connection, its settings and what a statement sees are exactly Sequelize's. On
 * MariaDB, and for a statement inside a transaction, they go through `sequelize.query` as before. One set per
 * Sequelize instance; finalized before the instance closes its connections.
 */
export function preparedStatements(sequelize: Sequelize): PreparedStatements {
  let statements = instances.get(sequelize);
  if (!statements) {
    statements = sequelize.getDialect() === 'sqlite' ? sqliteStatements(sequelize) : queryStatements(sequelize);
    instances.set(sequelize, statements);
  }
  return statements;
}

function queryStatements(sequelize: Sequelize): PreparedStatements {
  const bound = (values: readonly StatementValue[]) => datesAsText(sequelize, values);
  return {
    select: <T extends object>(sql: string, values: readonly StatementValue[]) => sequelize.query<T>(sql, { replacements: bound(values), type: QueryTypes.SELECT }),
    async write(sql, values, options = {}) {
      const replacements = bound(values);
      const { transaction } = options;
      // Both dialects answer an INSERT with [insert id, rows changed] and an UPDATE or DELETE with [, rows changed].
      if (isInsert(sql)) {
        const [id, changes] = (await sequelize.query(sql, { replacements, type: QueryTypes.INSERT, transaction })) as [unknown, unknown];
        return { changes: Number(changes), lastId: Number(id) || null };
      }
      const [, changes] = (await sequelize.query(sql, { replacements, type: QueryTypes.UPDATE, transaction })) as [unknown, unknown];
      return { changes: Number(changes), lastId: null };
    },
  };
}

const isInsert = (sql: string) => /^\s*insert/i.test(sql);

/**
 * Dates as the models write them (sql-date.ts): on SQLite UTC text with its offset, so rows read the same either
 * way; on MariaDB with their milliseconds, which Sequelize's own escaping of a Date drops.
 */
function datesAsText(sequelize: Sequelize, values: readonly StatementValue[]): Array<Exclude<StatementValue, Date>> {
  return values.map((value) => (value instanceof Date ? sqlDate(sequelize, value) : value));
}

function sqliteStatements(sequelize: Sequelize): PreparedStatements {
  const viaQuery = queryStatements(sequelize);
  const manager = (sequelize as unknown as { connectionManager: { getConnection(options: object): Promise<SqliteDatabase> } }).connectionManager;
  const kept = new Map<string, SqliteStatement>();
  let shared: Promise<SqliteDatabase> | undefined;
  const options = (sequelize as unknown as { options: { logging?: unknown } }).options;
  /** To the query log as Sequelize writes it (values inlined), read at each call: a test may swap the log in for a while. */
  function log(sql: string, values: readonly StatementValue[]): void {
    if (typeof options.logging === 'function') (options.logging as (sql: string) => void)(withLiterals(sequelize, sql, values));
  }

  /** The statement for a text (kept), and whether it is to be finalized after this one call. */
  async function statement(sql: string): Promise<{ statement: SqliteStatement; once: boolean }> {
    const found = kept.get(sql);
    if (found) return { statement: found, once: false };
    shared ??= manager.getConnection({});
    const connection = await shared;
    // Kept once prepared: a text that fails to prepare answers its error and is prepared again at its next call.
    const made = await new Promise<SqliteStatement>((resolve, reject) => {
      const preparing = connection.prepare(sql, (err) => (err ? reject(err) : resolve(preparing)));
    });
    if (kept.size >= KEPT_STATEMENTS) return { statement: made, once: true };
    kept.set(sql, made);
    return { statement: made, once: false };
  }

  /*
   * One statement of these at a time on the pool. The connection runs one statement at a time anyway (its mutex),
   * but a kept statement's call goes to the pool at once, not through the connection's queue: parallel calls
   * filled the pool's four threads with jobs waiting on that mutex, one of them in SQLite's busy handler for a
   * write lock held by a transaction on another connection, which then found no thread for its next statement,
   * and every sign-in stalled (measured: 16 parallel sign-ins at PBKDF2 10,000). Queued here, they wait on the
   * main thread instead and leave the other threads free.
   */
  let tail: Promise<unknown> = Promise.resolve();
  function inTurn<T>(call: () => Promise<T>): Promise<T> {
    const result = tail.then(call, call);
    tail = result.catch(() => undefined);
    return result;
  }

  const bound = (values: readonly StatementValue[]) => datesAsText(sequelize, values);

  const close = sequelize.close.bind(sequelize);
  sequelize.close = async () => {
    const finalizing = [...kept.values()].map((used) => new Promise<void>((resolve) => used.finalize(() => resolve())));
    kept.clear();
    await Promise.all(finalizing);
    return close();
  };

  return {
    select<T extends object>(sql: string, values: readonly StatementValue[]): Promise<T[]> {
      log(sql, values);
      return inTurn(async () => {
        const { statement: used, once } = await statement(sql);
        return new Promise<T[]>((resolve, reject) =>
        used.all(bound(values), (err, rows) => {
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
      return inTurn(async () => {
        const { statement: used, once } = await statement(sql);
        return new Promise<WriteResult>((resolve, reject) =>
        used.run(bound(values), function (this: { changes: number; lastID: number }, err) {
          if (once) used.finalize();
          if (err) reject(err);
          // lastID is the connection's last insert whatever the statement: only an INSERT's is its own.
          else resolve({ changes: this.changes, lastId: insert ? this.lastID : null });
        }),
        );
      });
    },
  };
}
