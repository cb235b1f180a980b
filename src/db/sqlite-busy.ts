/**
 * How every SQLite connection of the process waits for the write lock another connection holds.
 *
 * SQLite waits in its busy handler: on a libuv pool thread, holding its connection's mutex. A wait of the whole
 * timeout there holds both, and the holder of the lock may need either to finish: a managed transaction that
 * reads on Sequelize's shared connection (a model read without `transaction`) while an autocommit write there
 * waits for that transaction's lock waited for its own waiter, both for the full 10 s (issue 51; measured in
 * the suite: a profile save, a refresh and a registration race each took 10.1 s now and then).
 *
 * So a statement waits at most LOCK_TRY_MS inside SQLite, then lets go of the thread and the connection, pauses
 * on the main thread and is tried again, until SQLITE_BUSY_TIMEOUT_MS has passed in all. A statement that SQLite
 * answers SQLITE_BUSY has done nothing (an autocommit write, BEGIN IMMEDIATE, a COMMIT that stays pending), so
 * running it again is what SQLite's own handler would have done.
 */

/** The longest a statement waits for the write lock, in all, before it fails with SQLITE_BUSY. */
export const SQLITE_BUSY_TIMEOUT_MS = 10_000;
/** The longest one try waits inside SQLite (its busy handler polls at 1, 2, 5, 10 ms…). */
export const LOCK_TRY_MS = 20;
const LOCK_RETRY_PAUSE_MS = 5;

const isBusy = (err: unknown): boolean => (err as { code?: string } | null)?.code === 'SQLITE_BUSY';

const pause = () => new Promise((resolve) => setTimeout(resolve, LOCK_RETRY_PAUSE_MS));

/** `attempt` again after a pause while it fails with SQLITE_BUSY, until SQLITE_BUSY_TIMEOUT_MS have passed. */
export async function retryWhileBusy<T>(attempt: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + SQLITE_BUSY_TIMEOUT_MS;
  for (;;) {
    try {
      return await attempt();
    } catch (err) {
      if (!isBusy(err) || Date.now() >= deadline) throw err;
      await pause();
    }
  }
}

type Callback = (this: unknown, err: Error | null, result?: unknown) => void;

export interface SqliteCallbackStatements {
  configure(option: 'busyTimeout', value: number): void;
  all(sql: string, ...rest: unknown[]): unknown;
  run(sql: string, ...rest: unknown[]): unknown;
}

/**
 * Gives a node-sqlite3 connection the wait above: its `run` and `all` (what Sequelize's dialect calls) answer
 * their callback once the statement ran or the deadline passed (retryWhileBusy). The callback keeps its `this`
 * (the statement: an INSERT's lastID and a write's changes).
 */
export function retryStatementsWhileBusy(connection: SqliteCallbackStatements): void {
  connection.configure('busyTimeout', LOCK_TRY_MS);
  for (const method of ['run', 'all'] as const) {
    const original = connection[method].bind(connection);
    connection[method] = (sql: string, ...rest: unknown[]) => {
      const callback = rest.at(-1);
      if (typeof callback !== 'function') return original(sql, ...rest);
      const args = rest.slice(0, -1);
      let statement: unknown;
      const attempt = () =>
        new Promise<unknown>((resolve, reject) =>
          original(sql, ...args, function (this: unknown, err: Error | null, result?: unknown) {
            statement = this;
            if (err) reject(err);
            else resolve(result);
          }),
        );
      retryWhileBusy(attempt).then(
        (result) => (callback as Callback).call(statement, null, result),
        (err: Error) => (callback as Callback).call(statement, err),
      );
      return connection;
    };
  }
}
