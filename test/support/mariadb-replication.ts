import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import mysql from 'mysql2/promise';
import { closedPort } from './ports';
import { stopped } from './redis-server';

/**
 * A MariaDB primary and a replica of the test's own (never the shared server on 3306): two `mariadbd` processes
 * with their own data directories on spare loopback ports, the replica following the primary by GTID. A test
 * makes the replica lag on demand (its SQL thread stopped) and stops both by pid.
 */

const exec = promisify(execFile);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface MariaDbServer {
  port: number;
  process: ChildProcess;
  /** `mysql://root@127.0.0.1:port/<database>` */
  url(database: string): string;
  query(sql: string, values?: unknown[]): Promise<unknown>;
}

export interface MariaDbReplication {
  primary: MariaDbServer;
  replica: MariaDbServer;
  /** STOP SLAVE SQL_THREAD: the replica receives the primary's changes but applies none (lag on demand). */
  pause(): Promise<void>;
  /** START SLAVE SQL_THREAD, then waits until the replica has applied everything the primary wrote. */
  catchUp(): Promise<void>;
  stop(): Promise<void>;
}

/** Whether mariadbd and mariadb-install-db are installed (the replica tests skip without them). */
export function mariadbAvailable(): boolean {
  return ['/usr/sbin/mariadbd', '/usr/bin/mariadb-install-db'].every((file) => fs.existsSync(file));
}

async function startServer(base: string, serverId: number, extra: string[]): Promise<MariaDbServer> {
  const port = await closedPort();
  const dir = path.join(base, `data-${serverId}`);
  // A temporary directory of its own: two installs at once in the shared /tmp once collided on a temporary
  // table's name ("Could not remove temporary table '/tmp/#sql-temptable-…'") and one aborted.
  const tmpdir = path.join(base, `tmp-${serverId}`);
  fs.mkdirSync(tmpdir);
  const env = { ...process.env, TMPDIR: tmpdir };
  // The system my.cnf sets `user = mysql`: --no-defaults, and root runs it.
  await exec('mariadb-install-db', ['--no-defaults', `--datadir=${dir}`, '--user=root', '--auth-root-authentication-method=normal', '--skip-test-db'], { timeout: 120_000, env });
  const child = spawn(
    '/usr/sbin/mariadbd',
    [
      '--no-defaults', `--datadir=${dir}`, `--port=${port}`, '--bind-address=127.0.0.1', `--socket=${dir}.sock`, `--server-id=${serverId}`,
      '--user=root', `--pid-file=${dir}.pid`, '--skip-name-resolve', '--innodb-buffer-pool-size=32M', '--innodb-log-file-size=16M',
      '--character-set-server=utf8mb4', '--collation-server=utf8mb4_unicode_ci', `--tmpdir=${tmpdir}`, ...extra,
    ],
    { stdio: 'ignore', env },
  );
  let connection: mysql.Connection | undefined;
  const deadline = Date.now() + 60_000;
  while (!connection) {
    try {
      connection = await mysql.createConnection({ host: '127.0.0.1', port, user: 'root' });
    } catch (err) {
      if (Date.now() > deadline || child.exitCode !== null) {
        child.kill('SIGKILL');
        throw err;
      }
      await sleep(200);
    }
  }
  const open = connection;
  child.once('exit', () => void open.end().catch(() => undefined));
  return {
    port,
    process: child,
    url: (database) => `mysql://root@127.0.0.1:${port}/${database}`,
    query: async (sql, values) => (await open.query(sql, values))[0],
  };
}

/** Installs and starts both servers (in parallel), then points the replica at the primary by GTID. */
export async function startMariaDbReplication(): Promise<MariaDbReplication> {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'auth-mariadb-'));
  const started = await Promise.allSettled([
    startServer(base, 1, [`--log-bin=${path.join(base, 'primary-bin')}`, '--binlog-format=ROW']),
    startServer(base, 2, ['--read-only=1', `--relay-log=${path.join(base, 'replica-relay')}`]),
  ]);
  const servers = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const stop = async () => {
    for (const server of servers) {
      server.process.kill('SIGKILL');
      await stopped(server.process);
    }
    fs.rmSync(base, { recursive: true, force: true });
  };
  if (servers.length < 2) {
    await stop();
    throw (started.find((result) => result.status === 'rejected') as PromiseRejectedResult).reason;
  }
  const [primary, replica] = servers;
  const catchUp = async () => {
    await replica.query('START SLAVE SQL_THREAD');
    const [{ gtid }] = (await primary.query('SELECT @@gtid_binlog_pos AS gtid')) as Array<{ gtid: string }>;
    const [{ waited }] = (await replica.query('SELECT MASTER_GTID_WAIT(?, 30) AS waited', [gtid])) as Array<{ waited: number }>;
    if (Number(waited) !== 0) throw new Error('the replica did not catch up within 30 s');
  };
  try {
    await replica.query(
      `CHANGE MASTER TO MASTER_HOST='127.0.0.1', MASTER_PORT=${primary.port}, MASTER_USER='root', MASTER_PASSWORD='', MASTER_USE_GTID=slave_pos`,
    );
    await replica.query('START SLAVE');
    await catchUp();
  } catch (err) {
    await stop();
    throw err;
  }
  return { primary, replica, pause: async () => void (await replica.query('STOP SLAVE SQL_THREAD')), catchUp, stop };
}
