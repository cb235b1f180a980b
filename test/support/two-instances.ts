import assert from 'node:assert/strict';
import request from 'supertest';
import type { Express } from 'express';
import { ctx } from './context';
import { PASSWORD } from './auth';
import { killRedis, redisServerAvailable, startRedis, type PrivateRedis } from './redis-server';
import { startSmtpSink, type SmtpSink } from './smtp-sink';
import { scratchDatabase, startControlledRedis, type ControlledRedis, type ScratchDatabase } from './processes';
import { startService, type ServiceProcess } from './service-process';
import { RedisStore } from '../../src/store/redis-store';
import { createApp } from '../../src/app';
import { loadConfig } from '../../src/config/config';

/** Two instances of the service in one process: what one does, the other must see. */
export interface TwoInstances {
  readonly first: Express;
  readonly second: Express;
  /** Each instance's own connection to the one Redis, in order: flushing either empties it for both. */
  readonly stores: readonly RedisStore[];
  /** The SMTP sink both instances send their mail to (with `mail: true`). */
  readonly mail: SmtpSink;
}

export interface TwoInstancesOptions {
  /** Config overrides on top of the run's environment. */
  env?: Record<string, string>;
  /** An SMTP sink for both instances' mail (SMTP_URL and EMAIL_FROM set), started before them, stopped after. */
  mail?: boolean;
}

/**
 * Registers, in the calling describe, two apps over the run's one database, each with its own connection to
 * one private redis-server (keys under the same prefix, as two deployed instances share them), with the
 * suite's config overrides on top of the run's environment; after(), the connections close and the server
 * is killed. The suite is skipped where no redis-server is installed.
 */
export function twoInstances(options: TwoInstancesOptions = {}): TwoInstances {
  let redis: PrivateRedis | undefined;
  let mail: SmtpSink | undefined;
  const stores: RedisStore[] = [];
  const apps: Express[] = [];

  before(async function () {
    if (!redisServerAvailable()) this.skip();
    redis = await startRedis();
    if (options.mail) mail = await startSmtpSink();
    const { env, logger, sequelize, models } = ctx();
    const mailEnv = mail ? { SMTP_URL: mail.url, EMAIL_FROM: 'auth@example.test' } : {};
    const config = loadConfig({ ...env, REDIS_URL: redis.url, ...mailEnv, ...options.env });
    for (let i = 0; i < 2; i++) {
      const store = new RedisStore(redis.url, { keyPrefix: 'shared:' });
      await store.connect();
      stores.push(store);
      apps.push(createApp({ config, logger, sequelize, models, store }));
    }
  });

  after(async () => {
    for (const store of stores) await store.close();
    if (redis) await killRedis(redis);
    await mail?.stop();
  });

  const instance = (i: number): Express => apps[i] ?? assert.fail('twoInstances: no apps yet (read them inside a test)');
  return {
    get first() {
      return instance(0);
    },
    get second() {
      return instance(1);
    },
    stores,
    get mail() {
      return mail ?? assert.fail('twoInstances: no mail sink (ask for one with mail: true, read it inside a test)');
    },
  };
}

/**
 * Registers, in the calling describe, two service processes (the built server, as deployed) on one scratch
 * MariaDB/MySQL database and one private redis-server, `env` on top; after(), both stop, the server is killed
 * and the database dropped. `urls` holds their base URLs once before() ran. The suite is skipped unless
 * DATABASE_URL names a MySQL server and redis-server is installed: several instances apply only there.
 */
export function twoServiceProcesses(env: Record<string, string> = {}): { readonly urls: readonly string[] } {
  let redis: ControlledRedis | undefined;
  let db: ScratchDatabase | undefined;
  const services: ServiceProcess[] = [];
  const urls: string[] = [];

  before(async function () {
    if (!/^(mysql|mariadb):/.test(process.env.DATABASE_URL ?? '') || !redisServerAvailable()) this.skip();
    redis = await startControlledRedis();
    db = await scratchDatabase('two');
    const serviceEnv = { DATABASE_URL: db.url, REDIS_URL: redis.url, ...env };
    // The first applies the migrations; the second then finds them applied.
    services.push(await startService(serviceEnv, 60_000));
    services.push(await startService(serviceEnv, 60_000));
    urls.push(...services.map((service) => service.baseUrl));
  });

  after(async () => {
    await Promise.all(services.map((service) => service.stop()));
    await redis?.kill();
    await db?.drop();
  });

  return { urls };
}

/** The header that presents a token. */
export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** Signs the user in by password on one instance: the access token. */
export async function signIn(on: Express, email: string): Promise<string> {
  const res = await request(on).post('/auth/login').send({ email, password: PASSWORD });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.token as string;
}
