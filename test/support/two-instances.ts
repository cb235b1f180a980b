import assert from 'node:assert/strict';
import request from 'supertest';
import type { Express } from 'express';
import { ctx } from './context';
import { PASSWORD } from './auth';
import { killRedis, redisServerAvailable, startRedis, type PrivateRedis } from './redis-server';
import { RedisStore } from '../../src/store/redis-store';
import { createApp } from '../../src/app';
import { loadConfig } from '../../src/config/config';

/** Two instances of the service in one process: what one does, the other must see. */
export interface TwoInstances {
  readonly first: Express;
  readonly second: Express;
  /** Each instance's own connection to the one Redis, in order: flushing either empties it for both. */
  readonly stores: readonly RedisStore[];
}

/**
 * Registers, in the calling describe, two apps over the run's one database, each with its own connection to
 * one private redis-server (keys under the same prefix, as two deployed instances share them), with the
 * suite's config overrides on top of the run's environment; after(), the connections close and the server
 * is killed. The suite is skipped where no redis-server is installed. `overrides` may be a function, read in
 * before(), when it names what the suite's own earlier before() started (an SMTP sink's URL).
 */
export function twoInstances(overrides: Record<string, string> | (() => Record<string, string>) = {}): TwoInstances {
  let redis: PrivateRedis | undefined;
  const stores: RedisStore[] = [];
  const apps: Express[] = [];

  before(async function () {
    if (!redisServerAvailable()) this.skip();
    redis = await startRedis();
    const { env, logger, sequelize, models } = ctx();
    const config = loadConfig({ ...env, REDIS_URL: redis.url, ...(typeof overrides === 'function' ? overrides() : overrides) });
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
  };
}

/** The header that presents a token. */
export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** Signs the user in by password on one instance: the access token. */
export async function signIn(on: Express, email: string): Promise<string> {
  const res = await request(on).post('/auth/login').send({ email, password: PASSWORD });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.token as string;
}
