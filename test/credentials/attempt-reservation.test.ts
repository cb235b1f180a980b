import assert from 'node:assert/strict';
import pino from 'pino';
import { ctx, uniqueEmail } from '../support/context';
import { createAttemptReservation, reserveAll } from '../../src/credentials/attempt-reservation';

const logger = pino({ level: 'silent' });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
let names = 0;
const limiter = (limit: number, waitMs = 0) => createAttemptReservation({ store: ctx().store, logger, name: `test-reserve-${process.pid}-${names++}`, rule: { limit, windowSeconds: 60 }, waitMs });

/** Reserve, then judge (src/credentials/attempt-reservation.ts), on the run's store: in-process, or Redis with REDIS_URL. */
describe('attempt reservation: reserve, then judge', () => {
  it('when 12 guesses reserve at once against a limit of 5, then exactly 5 are granted and the rest refused', async () => {
    const attempts = limiter(5);
    const id = uniqueEmail('parallel');
    const results = await Promise.all(Array.from({ length: 12 }, () => attempts.reserve(id)));
    assert.equal(results.filter((r) => r.ok).length, 5);
    const refused = results.find((r) => !r.ok);
    assert.ok(refused && !refused.ok && refused.retryAfterSeconds > 0);
  });

  it('when right answers give their attempts back, then any number of them in a row is granted', async () => {
    const attempts = limiter(3);
    const id = uniqueEmail('rights');
    for (let i = 0; i < 20; i++) {
      const attempt = await attempts.reserve(id);
      assert.ok(attempt.ok, `attempt ${i}`);
      await attempt.succeeded();
    }
  });

  it('when 20 right answers run at once and waiting is allowed, then none is refused', async () => {
    const attempts = limiter(3, 5000);
    const id = uniqueEmail('parallel-rights');
    const outcomes = await Promise.all(Array.from({ length: 20 }, async () => {
      const attempt = await attempts.reserve(id);
      if (!attempt.ok) return false;
      await sleep(20);
      await attempt.succeeded();
      return true;
    }));
    assert.deepEqual(outcomes, Array(20).fill(true));
  });

  it('when 20 guesses run at once with waiting allowed and every one is wrong, then exactly the limit are judged', async () => {
    const attempts = limiter(4, 5000);
    const id = uniqueEmail('parallel-wrongs');
    let judged = 0;
    await Promise.all(Array.from({ length: 20 }, async () => {
      const attempt = await attempts.reserve(id);
      if (!attempt.ok) return;
      judged++;
      await sleep(20);
      await attempt.failed();
    }));
    assert.equal(judged, 4);
    assert.equal((await attempts.reserve(id)).ok, false, 'blocked afterwards');
  });

  it('when the limit-th failure lands, then it says so; clear lifts the block and starts a new count', async () => {
    const attempts = limiter(2);
    const id = uniqueEmail('block');
    const first = await attempts.reserve(id);
    assert.ok(first.ok);
    assert.deepEqual(await first.failed(), { limitReached: false });
    const second = await attempts.reserve(id);
    assert.ok(second.ok);
    assert.deepEqual(await second.failed(), { limitReached: true });
    assert.equal((await attempts.reserve(id)).ok, false);
    await attempts.clear(id);
    const again = await Promise.all([attempts.reserve(id), attempts.reserve(id), attempts.reserve(id)]);
    assert.equal(again.filter((r) => r.ok).length, 2, 'a new count of two');
  });

  it('when one of several limits refuses, then reserveAll gives back what the others took and names the refusing one', async () => {
    const roomy = limiter(1);
    const full = limiter(1);
    const id = uniqueEmail('all');
    assert.ok((await full.reserve(id)).ok);
    const refused = await reserveAll([roomy.reserve(id), full.reserve(id)]);
    assert.equal(refused.ok, false);
    assert.equal(!refused.ok && refused.refusedBy, 1);
    assert.ok((await roomy.reserve(id)).ok, 'the roomy limit got its attempt back');
  });
});
