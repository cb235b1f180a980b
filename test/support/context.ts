import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Express } from 'express';
import pino, { type Logger } from 'pino';
import mysql from 'mysql2/promise';
import type { Sequelize } from 'sequelize';
import { loadConfig, type Config } from '../../src/config/config';
import { createSequelize } from '../../src/db/sequelize';
import { migrate } from '../../src/db/migrate';
import { defineModels, type Models } from '../../src/models';
import { MemoryStore } from '../../src/store/memory-store';
import { RedisStore } from '../../src/store/redis-store';
import type { KeyValueStore } from '../../src/store';
import { createApp } from '../../src/app';
import type { NormalizedProfileDefinition } from '../../src/profiles/profile-types';

/** Everything a test needs: the real database and store this run uses, and an app built on them. */
export interface TestContext {
  env: Record<string, string>;
  config: Config;
  logger: Logger;
  sequelize: Sequelize;
  models: Models;
  store: KeyValueStore & { clear(): Promise<void> };
  app: Express;
  dialect: 'sqlite' | 'mysql';
}

let context: TestContext | undefined;
let cleanup: Array<() => Promise<void>> = [];

const RUN_ID = `${process.pid}_${crypto.randomBytes(4).toString('hex')}`;

/** A scratch database: a temporary SQLite file, or a MySQL database created for this run and dropped after. */
async function scratchDatabaseUrl(): Promise<string> {
  const url = process.env.DATABASE_URL;
  if (url && /^(mysql|mariadb):/.test(url)) {
    const server = new URL(url);
    const database = `auth_test_${RUN_ID}`;
    const connection = await mysql.createConnection({
      host: server.hostname,
      port: Number(server.port || 3306),
      user: decodeURIComponent(server.username),
      password: decodeURIComponent(server.password),
    });
    await connection.query(`CREATE DATABASE \`${database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    cleanup.push(async () => {
      await connection.query(`DROP DATABASE IF EXISTS \`${database}\``);
      await connection.end();
    });
    server.pathname = `/${database}`;
    return server.toString();
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'auth-test-'));
  cleanup.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
  return `sqlite:${path.join(dir, 'auth.sqlite')}`;
}

/** The environment every test app starts from; tests add or replace variables per app. */
function baseEnv(databaseUrl: string, dataDir: string): Record<string, string> {
  const env: Record<string, string> = {
    NODE_ENV: 'test',
    JWT_SECRET: crypto.randomBytes(32).toString('hex'),
    // The minimum the config accepts: keeps the suite fast; iteration upgrades are tested explicitly.
    PASSWORD_PBKDF2_ITERATIONS: '10000',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    BASE_URL: 'http://localhost:3000',
    // The suite's OAuth stand-in, email API and SMTP sink listen on loopback; the refusal tests turn this off.
    ALLOW_PRIVATE_OUTBOUND: 'true',
    // Service processes the tests stop exit at once; the shutdown tests set a grace of their own.
    SHUTDOWN_GRACE_MS: '0',
  };
  if (process.env.REDIS_URL) env.REDIS_URL = process.env.REDIS_URL;
  return env;
}

export async function setupTestContext(): Promise<TestContext> {
  const databaseUrl = await scratchDatabaseUrl();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'auth-data-'));
  cleanup.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
  const env = baseEnv(databaseUrl, dataDir);
  const config = loadConfig(env);
  const logger = pino({ level: 'silent' });
  const sequelize = createSequelize(config.databaseUrl, logger);
  await migrate(sequelize);
  const models = defineModels(sequelize);
  let store: TestContext['store'];
  if (config.redisUrl) {
    const redis = new RedisStore(config.redisUrl, { keyPrefix: `test:${RUN_ID}:` });
    await redis.connect();
    store = redis;
  } else {
    store = new MemoryStore();
  }
  cleanup.push(async () => {
    await store.clear();
    await store.close();
    await sequelize.close();
  });
  const app = createApp({ config, logger, sequelize, models, store });
  context = { env, config, logger, sequelize, models, store, app, dialect: sequelize.getDialect() as 'sqlite' | 'mysql' };
  return context;
}

export async function teardownTestContext(): Promise<void> {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
  context = undefined;
}

/** The shared context of this run (set up by test/setup.ts). */
export function ctx(): TestContext {
  if (!context) throw new Error('test context is not set up');
  return context;
}

/**
 * The SQL statements the run's database is sent while `fn` runs, without Sequelize's `Executing (…): `
 * prefix. Read from Sequelize's query log hook (not in its typings), which sees every statement.
 */
export async function sqlSentDuring(fn: () => Promise<unknown>): Promise<string[]> {
  const statements: string[] = [];
  const options = (ctx().sequelize as unknown as { options: { logging: unknown } }).options;
  const logging = options.logging;
  options.logging = (sql: string) => statements.push(sql.replace(/^Executing \([^)]*\): /, ''));
  try {
    await fn();
  } finally {
    options.logging = logging;
  }
  return statements;
}

export interface BuildAppOptions {
  /** Environment variables to add (or, with undefined, remove) for this app only. */
  env?: Record<string, string | undefined>;
  logger?: Logger;
  /** Custom profile fields for this app (as AUTH_CONFIG would give them). */
  profileDefinition?: NormalizedProfileDefinition;
}

/** Another app on the same database and store, for tests that need different configuration. */
export function buildApp(options: BuildAppOptions = {}): Express {
  const c = ctx();
  const env: Record<string, string> = { ...c.env };
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return createApp({
    config: loadConfig(env),
    logger: options.logger ?? c.logger,
    sequelize: c.sequelize,
    models: c.models,
    store: c.store,
    profileDefinition: options.profileDefinition,
  });
}

const TABLES_CHILD_FIRST = [
  'outbox',
  'webhook_endpoints',
  'recovery_codes',
  'two_factor',
  'content',
  'collections',
  'activity_logs',
  'oauth_accounts',
  'password_reset_tokens',
  'auth_verification',
  'otp_codes',
  'revoked_tokens',
  'user_profiles',
  'users',
  'settings',
  'plugins',
  // A provider changes sign-in for its domains (enforcement) and the sign-in page: "no users yet" means none either.
  'sso_domains',
  'sso_providers',
];

/** Empties every table and the store: for tests that need "no users yet" (first admin and the like). */
export async function resetDatabase(): Promise<void> {
  const { sequelize, store } = ctx();
  for (const table of TABLES_CHILD_FIRST) await sequelize.query(`DELETE FROM ${table}`);
  await store.clear();
}

/** A unique email for a test's own rows. */
export function uniqueEmail(label = 'user'): string {
  return `${label}-${crypto.randomBytes(5).toString('hex')}@example.test`;
}
