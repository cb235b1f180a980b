import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import request from 'supertest';
import type { Express } from 'express';
import { ctx, sqlSentDuring, uniqueEmail } from '../support/context';
import { loadConfig } from '../../src/config/config';
import { createApp } from '../../src/app';
import { RedisStore } from '../../src/store/redis-store';
import { startRedis, killRedis, type PrivateRedis } from '../support/redis-server';
import { redisCli, startRedisCluster, type RedisCluster } from '../support/redis-topologies';

/**
 * What one request costs in database statements and Redis commands, measured: Sequelize's query log counts
 * the statements (background writes included: the count waits for the request's activity row), and the
 * servers' own INFO commandstats count the commands (on a cluster, summed over the masters). For the
 * "Running at scale" figures; the bounds asserted are the ones the hot path is designed for.
 */

const PASSWORD = 'cost-password-123';
const SETTLE_MS = 300;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function commandCounts(ports: number[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const port of ports) {
    for (const line of (await redisCli(port, 'info', 'commandstats')).split('\n')) {
      const match = /^cmdstat_([^:]+):calls=(\d+)/.exec(line.trim());
      if (match) counts.set(match[1], (counts.get(match[1]) ?? 0) + Number(match[2]));
    }
  }
  return counts;
}

interface Cost {
  sql: string[];
  redis: Record<string, number>;
}

async function measure(ports: number[], fn: () => Promise<unknown>): Promise<Cost> {
  const before = await commandCounts(ports);
  const sql = await sqlSentDuring(async () => {
    await fn();
    await sleep(SETTLE_MS);
  });
  const after = await commandCounts(ports);
  const redis: Record<string, number> = {};
  for (const [name, calls] of after) {
    // The INFO calls of this measurement, and cluster housekeeping (slot map reads), are not the request's.
    if (['info', 'cluster|slots', 'cluster|nodes', 'cluster|info', 'cluster|shards', 'ping', 'client|setinfo', 'readonly', 'info|commandstats', 'client|setname'].includes(name)) continue;
    const delta = calls - (before.get(name) ?? 0);
    if (delta > 0) redis[name] = delta;
  }
  return { sql, redis };
}

const total = (cost: Cost) => Object.values(cost.redis).reduce((sum, n) => sum + n, 0);
const verbs = (sql: string[]) => sql.map((s) => s.trim().split(/\s+/)[0].toUpperCase()).join(' ');

for (const topology of ['one Redis server', 'a Redis Cluster'] as const) {
  describe(`What a request costs, with ${topology} (database statements, Redis commands)`, function () {
    this.timeout(120_000);
    let single: PrivateRedis | undefined;
    let cluster: RedisCluster | undefined;
    let store: RedisStore;
    let app: Express;
    let ports: number[] = [];

    before(async () => {
      let url: string;
      if (topology === 'one Redis server') {
        single = await startRedis();
        ports = [single.port];
        url = single.url;
      } else {
        cluster = await startRedisCluster();
        ports = cluster.servers.map((server) => server.port);
        url = `redis+cluster://${cluster.nodes}`;
      }
      store = new RedisStore(url, { keyPrefix: `cost${crypto.randomBytes(3).toString('hex')}:` });
      await store.connect();
      const c = ctx();
      app = createApp({ config: loadConfig({ ...c.env, TRUST_PROXY: 'loopback' }), logger: c.logger, sequelize: c.sequelize, models: c.models, store });
    });

    after(async () => {
      await store?.close();
      if (single) await killRedis(single);
      await cluster?.stop();
    });

    it('when a user signs in, reads /auth/me uncached and cached, and refreshes, then each costs what the table says', async () => {
      const email = uniqueEmail('cost');
      const ip = `10.9.${crypto.randomInt(256)}.${crypto.randomInt(1, 255)}`;
      await request(app).post('/auth/register').set('X-Forwarded-For', ip).send({ email, password: PASSWORD }).expect(201);
      // A first sign-in and token check fill what any running instance has: the revocation set copied to this
      // store, its marker, the settings cache (and the periodic revocation audit has just run).
      const first = (await request(app).post('/auth/login').set('X-Forwarded-For', ip).send({ email, password: PASSWORD }).expect(200)).body.token as string;
      for (let i = 0; i < 2; i++) await request(app).get('/auth/me').set('Authorization', `Bearer ${first}`).expect(200);
      await sleep(SETTLE_MS);

      let token = '';
      const login = await measure(ports, async () => {
        token = (await request(app).post('/auth/login').set('X-Forwarded-For', ip).send({ email, password: PASSWORD }).expect(200)).body.token as string;
      });
      const meUncached = await measure(ports, () => request(app).get('/auth/me').set('Authorization', `Bearer ${token}`).expect(200));
      const meCached = await measure(ports, () => request(app).get('/auth/me').set('Authorization', `Bearer ${token}`).expect(200));
      const refresh = await measure(ports, () => request(app).post('/auth/refresh').set('X-Forwarded-For', ip).set('Authorization', `Bearer ${token}`).expect(200));

      const rows = { 'POST /auth/login': login, 'GET /auth/me (uncached)': meUncached, 'GET /auth/me (cached)': meCached, 'POST /auth/refresh': refresh };
      process.stdout.write(`\n      ${topology} (${ctx().dialect}):\n`);
      for (const [label, cost] of Object.entries(rows)) {
        process.stdout.write(`      ${label.padEnd(26)} SQL ${String(cost.sql.length).padStart(2)} [${verbs(cost.sql)}]  Redis ${String(total(cost)).padStart(2)} ${JSON.stringify(cost.redis)}\n`);
      }

      // The hot path: a cached token check is one store round trip, and reads neither the user nor revocations
      // from the database (what /auth/me itself adds to its answer is the route's, not the check's).
      const checkReads = (cost: Cost) => cost.sql.filter((sql) => /FROM\s+`?(users|revoked_tokens)`?\b/i.test(sql));
      assert.deepEqual(checkReads(meCached), [], 'a cached token check sends no SQL');
      if (topology === 'one Redis server') assert.deepEqual(meCached.redis, { mget: 1 }, 'one MGET');
      else assert.deepEqual(meCached.redis, { get: 5 }, 'five GETs, pipelined per master');
      assert.equal(checkReads(meUncached).length, 1, `an uncached token check reads the user once: ${meUncached.sql.join(' | ')}`);
    });
  });
}
