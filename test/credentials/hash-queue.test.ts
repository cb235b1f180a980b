import assert from 'node:assert/strict';
import { createHashQueue } from '../../src/credentials/hash-queue';
import { AppError } from '../../src/http/app-error';

/** A stand-in for the hashing threads whose hashes finish when the test says (the queue's order is what is tested). */
function heldThreads() {
  const held: Array<{ job: string; finish: () => void }> = [];
  const started: string[] = [];
  const derive = (job: string) =>
    new Promise<Buffer>((resolve) => {
      started.push(job);
      held.push({ job, finish: () => resolve(Buffer.from(job)) });
    });
  /** Finishes the oldest running hash and lets the queue hand out the next. */
  const finishOne = async () => {
    held.shift()?.finish();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { derive, started, finishOne };
}

describe('hashing queue (issue 51: known browsers first, open lane bounded)', () => {
  it('when hashes wait, then every known one is handed out before any open one, each lane in arrival order', async () => {
    const threads = heldThreads();
    const queue = createHashQueue({ derive: threads.derive, slots: 2, maxWaitMs: 10_000 });
    const results = ['open-1', 'open-2', 'open-3', 'known-1', 'open-4', 'known-2'].map((job) => queue.run(job, job.startsWith('known') ? 'known' : 'open'));
    assert.deepEqual(threads.started, ['open-1', 'open-2'], 'two slots');
    assert.deepEqual(queue.waiting(), { known: 2, open: 2 });
    for (let i = 0; i < 6; i++) await threads.finishOne();
    assert.deepEqual(threads.started, ['open-1', 'open-2', 'known-1', 'known-2', 'open-3', 'open-4']);
    assert.deepEqual((await Promise.all(results)).map(String), ['open-1', 'open-2', 'open-3', 'known-1', 'open-4', 'known-2']);
  });

  it('when the open lane would wait longer than allowed, then an open hash is refused at once with 503 and Retry-After, and nothing is hashed', async () => {
    const threads = heldThreads();
    // A hash is first taken to last 50 ms and 2 finish per 50 ms: the 4th hash queued waits 100 ms, the 5th would wait 125.
    const queue = createHashQueue({ derive: threads.derive, slots: 2, maxWaitMs: 100 });
    const admitted = Array.from({ length: 6 }, (_, i) => queue.run(`open-${i}`, 'open'));
    assert.deepEqual(queue.waiting(), { known: 0, open: 4 });
    assert.deepEqual(queue.admits('open'), { ok: false, retryAfterSeconds: 1 });
    const refused = await queue.run('open-refused', 'open').then(() => null, (err: unknown) => err);
    assert.ok(refused instanceof AppError);
    assert.equal(refused.status, 429);
    assert.equal(refused.options.headers?.['Retry-After'], '1');
    assert.ok(!threads.started.includes('open-refused'));
    assert.ok(queue.admits('known').ok, 'a known browser is still taken');
    const known = queue.run('known', 'known');
    for (let i = 0; i < 7; i++) await threads.finishOne();
    assert.equal(String(await known), 'known');
    await Promise.all(admitted);
    assert.ok(queue.admits('open').ok, 'once the queue drains, open hashes are taken again');
  });

  it('when the threads stop finishing hashes, then the open lane closes within a second (the estimate follows the stall, not the last round trips)', async () => {
    const threads = heldThreads();
    const queue = createHashQueue({ derive: threads.derive, slots: 2, maxWaitMs: 1_000 });
    const admitted = Array.from({ length: 30 }, (_, i) => queue.run(`open-${i}`, 'open'));
    // The threads keep up: ten hashes finish in quick succession, and 18 still wait.
    for (let i = 0; i < 10; i++) await threads.finishOne();
    assert.deepEqual(queue.waiting(), { known: 0, open: 18 });
    assert.ok(queue.admits('open').ok, 'a fast queue takes more');
    // Then nothing finishes for a fifth of a second (the threads lost the cores): 19 gaps of at least 200 ms is past 1 s.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const refused = queue.admits('open');
    assert.equal(refused.ok, false, 'the stall closes the open lane before any slow hash comes back');
    assert.ok(!refused.ok && refused.retryAfterSeconds >= 3 && refused.retryAfterSeconds <= 60);
    assert.ok(queue.admits('known').ok, 'a known browser is still taken');
    for (let i = 0; i < 20; i++) await threads.finishOne();
    await Promise.all(admitted);
    assert.ok(queue.admits('open').ok, 'once the queue drains, open hashes are taken again');
  });

  it("when unknown browsers' hashes fill the threads, then a known hash starts at once in the known lane's own slot, one at a time", async () => {
    const threads = heldThreads();
    const own = heldThreads();
    const queue = createHashQueue({ derive: threads.derive, knownSlot: own.derive, slots: 2, maxWaitMs: 10_000 });
    const open = Array.from({ length: 4 }, (_, i) => queue.run(`open-${i}`, 'open'));
    const known = ['known-1', 'known-2'].map((job) => queue.run(job, 'known'));
    assert.deepEqual(own.started, ['known-1'], 'the first known hash starts beside the busy threads');
    assert.deepEqual(queue.waiting(), { known: 1, open: 2 });
    await own.finishOne();
    assert.equal(String(await known[0]), 'known-1');
    assert.deepEqual(own.started, ['known-1', 'known-2'], 'the next known hash takes the freed slot');
    await own.finishOne();
    for (let i = 0; i < 4; i++) await threads.finishOne();
    assert.deepEqual((await Promise.all([...open, known[1]])).map(String), ['open-0', 'open-1', 'open-2', 'open-3', 'known-2']);
    assert.deepEqual(threads.started, ['open-0', 'open-1', 'open-2', 'open-3'], 'no known hash waited for the threads');
  });

  it('when known hashes pile up beyond the bound, then they are refused too (no lane grows without limit)', async () => {
    const threads = heldThreads();
    const queue = createHashQueue({ derive: threads.derive, slots: 1, maxWaitMs: 100 });
    const taken = Array.from({ length: 257 }, (_, i) => queue.run(`known-${i}`, 'known'));
    assert.equal(queue.waiting().known, 256);
    const refused = await queue.run('known-over', 'known').then(() => null, (err: unknown) => err);
    assert.ok(refused instanceof AppError && refused.status === 429);
    for (let i = 0; i < 257; i++) await threads.finishOne();
    assert.equal((await Promise.all(taken)).length, 257);
  });

  it('when a hash fails, then its caller gets the error and the next waiting hash is still handed out', async () => {
    let calls = 0;
    const queue = createHashQueue({
      derive: (job: string) => (++calls === 1 ? Promise.reject(new Error('thread gone')) : Promise.resolve(Buffer.from(job))),
      slots: 1,
      maxWaitMs: 1_000,
    });
    const [first, second] = await Promise.allSettled([queue.run('a', 'open'), queue.run('b', 'open')]);
    assert.equal(first.status, 'rejected');
    assert.equal(second.status === 'fulfilled' && String(second.value), 'b');
  });
});
