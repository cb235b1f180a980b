import assert from 'node:assert/strict';
import request from 'supertest';
import type { Express } from 'express';
import { ctx, uniqueEmail } from '../support/context';
import { RedisStore } from '../../src/store/redis-store';
import { createApp } from '../../src/app';
import { loadConfig } from '../../src/config/config';
import { redisServerAvailable, startRedis, stopped, type PrivateRedis } from '../support/redis-server';

describe('rate limits when the key-value store fails', () => {
  let redis: PrivateRedis | undefined;
  const stores: RedisStore[] = [];

  before(async function () {
    if (!redisServerAvailable()) this.skip();
    redis = await startRedis();
  });

  after(async () => {
    for (const store of stores) await store.close();
    if (redis) {
      redis.process.kill('SIGKILL');
      await stopped(redis.process);
    }
  });

  /** An app instance with its own connection to the private Redis. */
  async function instance(): Promise<Express> {
    const { env, logger, sequelize, models } = ctx();
    const store = new RedisStore(redis!.url, { keyPrefix: `fault-${Date.now()}:` });
    stores.push(store);
    await store.connect();
    return createApp({ config: loadConfig({ ...env, REDIS_URL: redis!.url }), logger, sequelize, models, store });
  }

  function resetRequest(app: Express) {
    return request(app).post('/auth/request-password-reset').send({ email: uniqueEmail('fault') });
  }

  it('when two instances have their own Redis connections, then they share the counters', async () => {
    const { env, logger, sequelize, models } = ctx();
    const config = loadConfig({ ...env, REDIS_URL: redis!.url });
    const prefix = `shared-${Date.now()}:`;
    const apps = [];
    for (let i = 0; i < 2; i++) {
      const store = new RedisStore(redis!.url, { keyPrefix: prefix });
      stores.push(store);
      await store.connect();
      apps.push(createApp({ config, logger, sequelize, models, store }));
    }

    const answers = [];
    for (const app of [apps[0], apps[1], apps[0], apps[1]]) answers.push(await resetRequest(app));

    assert.deepEqual(answers.map((res) => res.status), [200, 200, 200, 429]);
    assert.deepEqual(answers.slice(0, 3).map((res) => res.headers['x-ratelimit-remaining']), ['2', '1', '0']);
  });

  it('when Redis freezes (no answer at all), then a limited request waits at most the store timeout and passes', async () => {
    // Arrange
    const app = await instance();
    assert.equal((await resetRequest(app)).status, 200);
    redis!.process.kill('SIGSTOP');
    try {
      // Act
      const started = Date.now();
      const res = await resetRequest(app);
      const elapsed = Date.now() - started;

      // Assert
      assert.equal(res.status, 200);
      assert.equal(res.headers['x-ratelimit-limit'], '3');
      assert.ok(elapsed < 2500, `answered after ${elapsed} ms`);
    } finally {
      redis!.process.kill('SIGCONT');
    }
  });

  it('when Redis dies, then limited requests still pass at once, and the in-process limiter takes over', async () => {
    // Arrange: an instance counting in Redis
    const app = await instance();
    const first = await resetRequest(app);
    assert.equal(first.status, 200);
    assert.equal(first.headers['x-ratelimit-remaining'], '2');

    // Act: kill Redis, then keep asking
    redis!.process.kill('SIGKILL');
    await stopped(redis!.process);
    const answers = [];
    const durations = [];
    for (let i = 0; i < 4; i++) {
      const started = Date.now();
      answers.push(await resetRequest(app));
      durations.push(Date.now() - started);
    }

    // Assert: never blocked by the outage, never hung; limited per process (3 per window) from then on
    assert.deepEqual(answers.map((res) => res.status), [200, 200, 200, 429]);
    assert.deepEqual(answers.slice(0, 3).map((res) => res.headers['x-ratelimit-remaining']), ['2', '1', '0']);
    assert.ok(answers.every((res) => res.headers['x-ratelimit-limit'] === '3'));
    assert.ok(durations.every((ms) => ms < 1500), `durations ${durations.join(', ')} ms`);
  });
});
