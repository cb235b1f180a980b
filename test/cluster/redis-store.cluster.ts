import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { RedisStore } from '../../src/store/redis-store';
import { startRedisCluster, startRedisSentinelSet, type RedisCluster, type RedisSentinelSet } from '../support/redis-topologies';

/** The store's contract on the two topologies: every call works whichever slot or server its keys live on. */
for (const topology of ['cluster', 'sentinel'] as const) {
  describe(`RedisStore on a Redis ${topology === 'cluster' ? 'Cluster (three masters, three replicas)' : 'Sentinel set (master, replica, three sentinels)'}`, function () {
    this.timeout(120_000);
    let servers: RedisCluster | RedisSentinelSet | undefined;
    let store: RedisStore;
    const prefix = `t${crypto.randomBytes(3).toString('hex')}:`;

    before(async () => {
      servers = topology === 'cluster' ? await startRedisCluster() : await startRedisSentinelSet();
      store = new RedisStore(topology === 'cluster' ? `redis+cluster://${(servers as RedisCluster).nodes}` : (servers as RedisSentinelSet).url, { keyPrefix: prefix });
      await store.connect();
      assert.equal(store.topology, topology);
    });

    after(async () => {
      await store?.close();
      await servers?.stop();
    });

    it('when keys of many slots are read together, then getMany answers each in order', async () => {
      const keys = Array.from({ length: 40 }, (_, i) => `k${i}:${crypto.randomUUID()}`);
      await Promise.all(keys.filter((_, i) => i % 3 !== 0).map((key) => store.set(key, `v:${key}`, 60)));
      const values = await store.getMany([...keys, 'absent']);
      assert.deepEqual(values, [...keys.map((key, i) => (i % 3 === 0 ? null : `v:${key}`)), null]);
    });

    it('when a counter, a claim and a take run in parallel, then each is exact', async () => {
      const counts = await Promise.all(Array.from({ length: 25 }, () => store.increment('rl:login:10.0.0.1', 60)));
      assert.deepEqual(counts.map((c) => c.count).sort((a, b) => a - b), Array.from({ length: 25 }, (_, i) => i + 1));
      const claims = await Promise.all(Array.from({ length: 10 }, () => store.setIfAbsent('lock:x', 'me', 5)));
      assert.equal(claims.filter(Boolean).length, 1);
      await store.set('once', 'secret', 60);
      const taken = await Promise.all(Array.from({ length: 10 }, () => store.take('once')));
      assert.deepEqual(taken.filter((value) => value !== null), ['secret']);
    });

    it('when the store is cleared, then every key under its prefix is gone, on every master', async () => {
      await Promise.all(Array.from({ length: 30 }, (_, i) => store.set(`c${i}`, 'x', 60)));
      await store.clear();
      assert.deepEqual(await store.getMany(Array.from({ length: 30 }, (_, i) => `c${i}`)), Array(30).fill(null));
    });

    it('when the server-session client is used, then connect-redis calls go through the guard', async () => {
      const client = store.sessionClient();
      await client.set('sess:a', '{"x":1}', 'EX', 60);
      assert.equal(await client.get('sess:a'), '{"x":1}');
      await client.del(['sess:a']);
      assert.equal(await client.get('sess:a'), null);
    });
  });
}
