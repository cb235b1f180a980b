import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mysql from 'mysql2/promise';
import { killRedis, startRedis } from './redis-server';

/**
 * What fault and scale tests need around service processes (`startService` in ./service-process starts
 * the service itself): a private Redis they can break, scratch databases, and a JSON client.
 */

/** A private redis-server (./redis-server, never the shared one) a fault test can break in every way. */
export interface ControlledRedis {
  readonly url: string;
  /** SIGKILL: gone at once, with everything it held. */
  kill(): Promise<void>;
  /** SIGSTOP: connections stay open and nothing answers. */
  freeze(): void;
  /** SIGCONT after freeze. */
  resume(): void;
  /** A new, empty server on the same port (after kill): a restart without persistence. */
  restart(): Promise<void>;
}

export async function startControlledRedis(): Promise<ControlledRedis> {
  let current = await startRedis();
  return {
    url: current.url,
    async kill() {
      current.process.kill('SIGCONT');
      await killRedis(current);
    },
    freeze: () => current.process.kill('SIGSTOP'),
    resume: () => current.process.kill('SIGCONT'),
    async restart() {
      current = await startRedis(current.port);
    },
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
