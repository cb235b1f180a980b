/**
 * Sequelize's SQLite dialect asks `PRAGMA table_info(`t`)` before every SELECT it runs, on the same connection,
 * to learn which columns to parse as dates and booleans: a second statement, a second trip through libuv's pool
 * and a second callback for each read (issue 51: on a refresh, two of its statements were these). A table's
 * columns change only by DDL, so the answer is kept per table and given again. Any CREATE, ALTER or DROP this
 * process runs on a connection of the instance forgets every answer; DDL from another process (a migration run
 * beside a live instance) is seen within TABLE_INFO_TTL_MS, and until then only a column added by it reads
 * unparsed, which the running code does not select anyway.
 */

/** How long an answer is given again without asking SQLite. */
export const TABLE_INFO_TTL_MS = 60_000;

type Callback = (err: Error | null, rows?: unknown) => void;

export interface SqliteStatements {
  all(sql: string, ...rest: unknown[]): unknown;
  run(sql: string, ...rest: unknown[]): unknown;
  exec(sql: string, ...rest: unknown[]): unknown;
}

/** Exactly the statement the dialect sends for its column types (src: sequelize/lib/dialects/sqlite/query.js). */
const COLUMN_TYPES_PRAGMA = /^PRAGMA table_info\(`[^`]+`\)$/;
const DDL = /^\s*(create|alter|drop)\s/i;

export interface TableInfoCache {
  /** Wraps one connection's `all`, `run` and `exec` (once per connection). */
  attach(connection: SqliteStatements): void;
}

export function tableInfoCache(now: () => number = Date.now): TableInfoCache {
  const answers = new Map<string, { rows: unknown; at: number }>();
  const attached = new WeakSet<SqliteStatements>();
  // Moves on at every DDL: an answer asked for before it is not kept after it.
  let generation = 0;
  const forget = () => {
    answers.clear();
    generation++;
  };

  const forgetOnDdl = (connection: SqliteStatements, method: 'run' | 'exec') => {
    const original = connection[method].bind(connection);
    connection[method] = (sql: string, ...rest: unknown[]) => {
      if (DDL.test(sql)) forget();
      return original(sql, ...rest);
    };
  };

  return {
    attach(connection) {
      if (attached.has(connection)) return;
      attached.add(connection);
      const all = connection.all.bind(connection);
      connection.all = (sql: string, ...rest: unknown[]) => {
        const callback = rest[0];
        if (rest.length !== 1 || typeof callback !== 'function' || !COLUMN_TYPES_PRAGMA.test(sql)) {
          if (DDL.test(sql)) forget();
          return all(sql, ...rest);
        }
        const kept = answers.get(sql);
        if (kept && now() - kept.at < TABLE_INFO_TTL_MS) {
          // Asynchronously, as SQLite would answer: the dialect awaits it like any other.
          setImmediate(callback as Callback, null, kept.rows);
          return connection;
        }
        const asked = generation;
        return all(sql, (err: Error | null, rows: unknown) => {
          if (!err && asked === generation) answers.set(sql, { rows, at: now() });
          (callback as Callback)(err, rows);
        });
      };
      forgetOnDdl(connection, 'run');
      forgetOnDdl(connection, 'exec');
    },
  };
}
