import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import request from 'supertest';
import type { Express } from 'express';
import { ctx, uniqueEmail } from '../support/context';
import { RedisStore } from '../../src/store/redis-store';
import { createApp } from '../../src/app';
import { loadConfig } from '../../src/config/config';

/** A free loopback port (never the shared Redis on 6379). */
async function sparePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A private redis-server for this suite: started here, killed here. */
async function startRedis(): Promise<{ url: string; process: ChildProcess }> {
  const port = await sparePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no'], {
    stdio: 'ignore',
  });
  const url = `redis://127.0.0.1:${port}`;
  const deadline = Date.now() + 5000;
  for (;;) {
    const probe = new RedisStore(url, { keyPrefix: 'probe:' });
    try {
      await probe.connect();
      await probe.ping();
      return { url, process: child };
    } catch (err) {
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw err;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      await probe.close();
    }
  }
}

function stopped(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

describe('rate limits when the key-value store fails', () => {
  let redis: { url: string; process: ChildProcess } | undefined;
  const stores: RedisStore[] = [];

  before(async function () {
    if (spawnSync('redis-server', ['--version']).status !== 0) this.skip();
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
