import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import mysql from 'mysql2/promise';

/**
 * Processes a fault or scale test starts and ends itself: a private redis-server on a spare loopback
 * port (never the machine's shared one), and scratch databases for service processes
 * (`startService` in ./service-process starts the service itself).
 */

/** A free loopback port. */
export async function sparePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Resolves once the child has exited (at once when it already has). */
export function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

export function redisServerInstalled(): boolean {
  return spawnSync('redis-server', ['--version']).status === 0;
}

/** Whether something on the port answers PING with PONG within the timeout. */
function pong(port: number, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => done(data.toString().startsWith('+PONG')));
  });
}

/** A redis-server of the test's own: no persistence, so a restart comes back empty. */
export interface PrivateRedis {
  readonly url: string;
  readonly port: number;
  /** SIGKILL: gone at once, with everything it held. */
  kill(): Promise<void>;
  /** SIGSTOP: connections stay open and nothing answers. */
  freeze(): void;
  /** SIGCONT after freeze. */
  resume(): void;
  /** Starts a new, empty server on the same port (after kill). */
  restart(): Promise<void>;
}

export async function startRedis(): Promise<PrivateRedis> {
  const port = await sparePort();
  let child: ChildProcess;
  const launch = async () => {
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    const deadline = Date.now() + 10_000;
    while (!(await pong(port, 500))) {
      if (Date.now() > deadline || child.exitCode !== null) {
        child.kill('SIGKILL');
        throw new Error(`redis-server on port ${port} did not start`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  await launch();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async kill() {
      child.kill('SIGCONT');
      child.kill('SIGKILL');
      await exited(child);
    },
    freeze: () => child.kill('SIGSTOP'),
    resume: () => child.kill('SIGCONT'),
    restart: launch,
  };
}

/** A database of the test's own: on the run's MariaDB/MySQL server when DATABASE_URL names one, else a SQLite file. */
export interface ScratchDatabase {
  url: string;
  dialect: 'mysql' | 'sqlite';
  drop(): Promise<void>;
}

export async function scratchDatabase(label: string): Promise<ScratchDatabase> {
  const base = process.env.DATABASE_URL;
  if (base && /^(mysql|mariadb):/.test(base)) {
    const server = new URL(base);
    const name = `auth_${label}_${crypto.randomBytes(4).toString('hex')}`;
    const connection = await mysql.createConnection({
      host: server.hostname,
      port: Number(server.port || 3306),
      user: decodeURIComponent(server.username),
      password: decodeURIComponent(server.password),
    });
    await connection.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    server.pathname = `/${name}`;
    return {
      url: server.toString(),
      dialect: 'mysql',
      drop: async () => {
        await connection.query(`DROP DATABASE IF EXISTS \`${name}\``);
        await connection.end();
      },
    };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `auth-${label}-`));
  return { url: `sqlite:${path.join(dir, 'auth.sqlite')}`, dialect: 'sqlite', drop: async () => fs.rmSync(dir, { recursive: true, force: true }) };
}

export interface CallResult {
  status: number;
  body: Record<string, unknown>;
  headers: Headers;
  ms: number;
}

export interface CallOptions {
  token?: string;
  body?: unknown;
  /** Client address (the service runs with TRUST_PROXY=loopback), so per-IP limits decide only when meant to. */
  ip?: string;
}

/** A random client address from 10.0.0.0/8. */
export function randomIp(): string {
  return `10.${crypto.randomInt(256)}.${crypto.randomInt(256)}.${crypto.randomInt(1, 255)}`;
}

/** One JSON request to a service process; a network failure is status 0 (the caller counts it as failed). */
export async function call(baseUrl: string, method: string, route: string, options: CallOptions = {}): Promise<CallResult> {
  const headers: Record<string, string> = { Accept: 'application/json', 'X-Forwarded-For': options.ip ?? randomIp() };
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  const started = Date.now();
  try {
    const res = await fetch(baseUrl + route, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await res.text();
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      // not JSON (a page or an empty answer)
    }
    return { status: res.status, body, headers: res.headers, ms: Date.now() - started };
  } catch {
    return { status: 0, body: {}, headers: new Headers(), ms: Date.now() - started };
  }
}
