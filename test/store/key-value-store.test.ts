import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { MemoryStore } from '../../src/store/memory-store';
import { RedisStore } from '../../src/store/redis-store';
import type { KeyValueStore } from '../../src/store';
import { closedPort } from '../support/ports';

type ClearableStore = KeyValueStore & { clear(): Promise<void> };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const implementations: Array<[string, () => Promise<ClearableStore>]> = [['memory', async () => new MemoryStore()]];
if (process.env.REDIS_URL) {
  const url = process.env.REDIS_URL;
  implementations.push([
    'redis',
    async () => {
      const store = new RedisStore(url, { keyPrefix: `test-kv:${crypto.randomBytes(4).toString('hex')}:` });
      await store.connect();
      return store;
    },
  ]);
}

for (const [kind, create] of implementations) {
  describe(`key-value store (${kind})`, () => {
    let store: ClearableStore;
    before(async () => {
      store = await create();
    });
    after(async () => {
      await store.clear();
      await store.close();
    });

    it('when a value is set, then it is read back, and gone after delete', async () => {
      await store.set('a', '1');
      assert.equal(await store.get('a'), '1');
      assert.deepEqual(await store.getMany(['a', 'missing']), ['1', null]);
      await store.delete('a');
      assert.equal(await store.get('a'), null);
    });

    it('when a TTL passes, then the value expires', async () => {
      await store.set('ttl', 'x', 0.2);
      assert.equal(await store.get('ttl'), 'x');
      await sleep(300);
      assert.equal(await store.get('ttl'), null);
    });

    it('when many callers claim the same key at once, then exactly one wins', async () => {
      const results = await Promise.all(Array.from({ length: 20 }, () => store.setIfAbsent('claim', '1', 5)));
      assert.equal(results.filter(Boolean).length, 1);
    });

    it('when many callers take the same value at once, then exactly one gets it', async () => {
      await store.set('once', 'v', 5);
      const results = await Promise.all(Array.from({ length: 20 }, () => store.take('once')));
      assert.deepEqual(results.filter((value) => value !== null), ['v']);
    });

    it('when a counter is incremented in parallel, then every increment counts and the window resets', async () => {
      const results = await Promise.all(Array.from({ length: 25 }, () => store.increment('counter', 0.3)));
      assert.deepEqual(results.map((r) => r.count).sort((a, b) => a - b), Array.from({ length: 25 }, (_, i) => i + 1));
      assert.ok(results[0].resetAt > Date.now() && results[0].resetAt <= Date.now() + 400);
      await sleep(400);
      assert.equal((await store.increment('counter', 0.3)).count, 1);
    });

    it('when cleared, then its own keys are gone', async () => {
      await store.set('k1', 'v');
      await store.clear();
      assert.equal(await store.get('k1'), null);
    });
  });
}

describe('key-value store (redis unreachable)', () => {
  it('when Redis is down, then calls fail fast instead of hanging', async () => {
    const store = new RedisStore(`redis://127.0.0.1:${await closedPort()}`);
    await assert.rejects(store.connect());
    const started = Date.now();
    await assert.rejects(store.get('x'));
    await assert.rejects(store.increment('x', 1));
    assert.ok(Date.now() - started < 1000, 'calls on a dead Redis return within a second');
    await store.close();
  });
});
