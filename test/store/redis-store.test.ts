import assert from 'node:assert/strict';
import { RedisStore } from '../../src/store/redis-store';
import { startControlledRedis, type ControlledRedis } from '../support/processes';
import { redisServerAvailable } from '../support/redis-server';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function timed(work: () => Promise<unknown>): Promise<{ ms: number; failed: boolean }> {
  const started = Date.now();
  const failed = await work().then(
    () => false,
    () => true,
  );
  return { ms: Date.now() - started, failed };
}

describe('Redis store when Redis stops answering (a private redis-server, frozen)', () => {
  let redis: ControlledRedis | undefined;
  let store: RedisStore | undefined;

  before(async function () {
    if (!redisServerAvailable()) this.skip();
    redis = await startControlledRedis();
    store = new RedisStore(redis.url, { keyPrefix: 'breaker:' });
    await store.connect();
  });

  after(async () => {
    await store?.close();
    await redis?.kill();
  });

  /** Runs `work` while Redis is frozen (once the pause a previous failure started is over), then checks the store recovers. */
  async function whileFrozen(work: () => Promise<void>): Promise<void> {
    await sleep(1100);
    await store!.set('k', 'v');
    redis!.freeze();
    try {
      await work();
    } finally {
      redis!.resume();
    }
    await sleep(1100);
    assert.equal(await store!.get('k'), 'v', 'once Redis answers again, so does the store');
  }

  it('when a command times out, then the next calls fail at once for a second, and Redis is tried again after it', async function () {
    this.timeout(20_000);
    await whileFrozen(async () => {
      const first = await timed(() => store!.get('k'));
      assert.ok(first.failed && first.ms >= 900, `the first call waits for the command timeout (${first.ms} ms)`);
      // A call that is tried waits for the command timeout (1 s): half of that leaves room for a slow host.
      const next = await timed(() => store!.getMany(['k', 'other']));
      assert.ok(next.failed && next.ms < 500, `the next call is not tried (${next.ms} ms)`);
    });
  });

  it('when a command has gone unanswered for a while, then a new call fails at once, before the first one times out', async function () {
    this.timeout(20_000);
    await whileFrozen(async () => {
      const first = timed(() => store!.get('k'));
      await sleep(300);
      const second = await timed(() => store!.get('k'));
      assert.ok(second.failed && second.ms < 500, `the second call is not tried (${second.ms} ms)`);
      assert.ok((await first).failed, 'the first call still ends in its timeout');
    });
  });

  it('when calls start at different moments and Redis freezes, then each fails at its own deadline: the later one neither early with the first nor a whole timeout late', async function () {
    this.timeout(20_000);
    await whileFrozen(async () => {
      const first = timed(() => store!.get('k'));
      await sleep(200);
      const second = await timed(() => store!.get('k'));
      assert.ok((await first).failed && second.failed);
      assert.ok(second.ms >= 900 && second.ms < 1500, `the later call fails about a timeout after its own start (${second.ms} ms)`);
    });
  });

  it('when Redis answers, then calls set no timer each: one timer watches every deadline', async () => {
    await sleep(1100);
    const setTimer = global.setTimeout;
    let timers = 0;
    global.setTimeout = ((...args: Parameters<typeof setTimeout>) => {
      timers++;
      return setTimer(...args);
    }) as typeof setTimeout;
    try {
      for (let round = 0; round < 10; round++) await Promise.all(Array.from({ length: 10 }, (_, i) => store!.getMany([`k${i}`, 'marker'])));
    } finally {
      global.setTimeout = setTimer;
    }
    assert.ok(timers <= 2, `${timers} timers for 100 calls`);
  });

  it('when Redis answers with an error, then that is no outage', async () => {
    await store!.set('text', 'not a number');
    await assert.rejects(store!.increment('text', 60));
    assert.equal(await store!.get('text'), 'not a number', 'the next call is tried at once');
  });
});
