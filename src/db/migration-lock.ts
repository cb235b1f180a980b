import fs from 'node:fs';
import type { Sequelize } from 'sequelize';
import type { Logger } from 'pino';

/** MySQL's named lock (one per server, so the name carries the database: two databases never wait for each other). */
const LOCK_NAME_PREFIX = 'auth-migrations';
/**
 * How long an instance waits for another's migration run before it gives up and fails its start (the
 * orchestrator restarts it, and by then the run has finished). Longer than any migration of a large table.
 */
const LOCK_WAIT_SECONDS = 600;
const FILE_LOCK_POLL_MS = 100;

export const MIGRATION_LOCK_MESSAGES = {
  timeout: `Another instance has been migrating the database for ${LOCK_WAIT_SECONDS} s; not starting`,
  failed: 'Could not take the migration lock',
} as const;

/** The callback API of the mysql2 connection Sequelize's pool hands out. */
interface MysqlConnection {
  query(sql: string, values: unknown[], callback: (err: Error | null, rows: Array<Record<string, unknown>>) => void): void;
}

interface ConnectionManager {
  getConnection(options: { type: 'write' | 'read' }): Promise<MysqlConnection>;
  releaseConnection(connection: MysqlConnection): Promise<void>;
}

/** Runs `fn` while holding the database's migration lock; other instances wait their turn. */
export async function underMigrationLock<T>(sequelize: Sequelize, logger: Logger | undefined, fn: () => Promise<T>): Promise<T> {
  if (sequelize.getDialect() === 'mysql') return underNamedLock(sequelize, logger, fn);
  const storage = (sequelize as unknown as { options: { storage?: string } }).options.storage;
  if (!storage || storage === ':memory:') return fn();
  return underFileLock(`${storage}.migrate-lock`, logger, fn);
}

/**
 * MySQL/MariaDB `GET_LOCK` on one connection kept aside from the pool for the whole run: the lock belongs to
 * that connection's session, and a crashed holder's connection closing frees it, so no lock outlives its
 * holder. Migrations themselves run on the pool's other connections.
 */
async function underNamedLock<T>(sequelize: Sequelize, logger: Logger | undefined, fn: () => Promise<T>): Promise<T> {
  const manager = (sequelize as unknown as { connectionManager: ConnectionManager }).connectionManager;
  const name = `${LOCK_NAME_PREFIX}:${sequelize.getDatabaseName()}`.slice(0, 64);
  const connection = await manager.getConnection({ type: 'write' });
  const query = (sql: string, values: unknown[]) =>
    new Promise<Array<Record<string, unknown>>>((resolve, reject) => connection.query(sql, values, (err, rows) => (err ? reject(err) : resolve(rows))));
  try {
    logger?.info({ lock: name }, 'taking the migration lock');
    const [row] = await query('SELECT GET_LOCK(?, ?) AS taken', [name, LOCK_WAIT_SECONDS]);
    if (Number(row?.taken) !== 1) throw new Error(row?.taken === 0 ? MIGRATION_LOCK_MESSAGES.timeout : MIGRATION_LOCK_MESSAGES.failed);
    try {
      return await fn();
    } finally {
      await query('SELECT RELEASE_LOCK(?)', [name]).catch(() => undefined);
    }
  } finally {
    await manager.releaseConnection(connection);
  }
}

function holderAlive(lockPath: string): boolean {
  try {
    const pid = Number(fs.readFileSync(lockPath, 'utf8'));
    if (!Number.isInteger(pid) || pid <= 0) return false;
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: a live process of another user holds it. ENOENT (the holder just finished) counts as gone.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * SQLite: a lock file beside the database, created exclusively and holding the holder's pid (a SQLite file is
 * shared only by processes of one machine, so the pid tells whether the holder still runs). A file left by a
 * crashed holder is removed. Not an exclusive transaction: the migrations would then wait for the lock's own
 * connection (Sequelize opens another per transaction), and SQLite's table rebuilds need foreign keys off,
 * which a transaction silently ignores.
 */
async function underFileLock<T>(lockPath: string, logger: Logger | undefined, fn: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + LOCK_WAIT_SECONDS * 1000;
  let logged = false;
  for (;;) {
    try {
      fs.writeFileSync(lockPath, String(process.pid), { flag: 'wx' });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    if (!holderAlive(lockPath)) {
      fs.rmSync(lockPath, { force: true });
      continue;
    }
    if (Date.now() > deadline) throw new Error(MIGRATION_LOCK_MESSAGES.timeout);
    if (!logged) logger?.info({ lock: lockPath }, 'waiting for the migration lock');
    logged = true;
    await new Promise((resolve) => setTimeout(resolve, FILE_LOCK_POLL_MS));
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(lockPath, { force: true });
  }
}
