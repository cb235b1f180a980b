import assert from 'node:assert/strict';
import { PASSWORD_QUALITY_MESSAGES, judgePasswordOffThread, passwordJudgeRunning, passwordProblemNow } from '../../src/credentials/password-quality';

/** The longest gap between turns of the event loop (a 1 ms timer's ticks) while `work` ran, in ms. */
async function longestStall(work: () => Promise<unknown>): Promise<number> {
  let last = performance.now();
  let longest = 0;
  const ticks = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  await new Promise((resolve) => setTimeout(resolve, 5));
  await work();
  await new Promise((resolve) => setTimeout(resolve, 5));
  clearInterval(ticks);
  return longest;
}

describe('password quality, judged on a worker thread', function () {
  this.timeout(30_000);
  // zxcvbn's slowest kind of input: l33t variants of a repeated common word.
  const hard = Array.from({ length: 8 }, () => 'p@$$w0rd').join('');

  it('when judged off the event loop, then the answers are the in-thread rule\'s', async () => {
    const samples = ['password123', 'Password1', 'qwertyuiop', 'correct horse battery staple', 'bench staple orbit 7 kettle', hard, 'admin-auth-login'];
    for (const sample of samples) {
      const offThread = await judgePasswordOffThread(sample);
      assert.equal(offThread.problem, passwordProblemNow(sample), sample);
    }
    assert.equal((await judgePasswordOffThread('password123')).problem, PASSWORD_QUALITY_MESSAGES.common);
    assert.equal((await judgePasswordOffThread('alice-example', ['alice@example.test', 'alice-example'])).problem, PASSWORD_QUALITY_MESSAGES.personal, 'a user input itself is refused');
    assert.equal((await judgePasswordOffThread('alice-example1', ['alice@example.test', 'alice-example'])).problem, PASSWORD_QUALITY_MESSAGES.weak, 'user inputs count');
  });

  it('when passwords are judged, then the event loop is never held as long as judging them in this thread holds it', async () => {
    await judgePasswordOffThread('warm the worker up');
    passwordProblemNow('warm this thread up');
    const inThread = await longestStall(async () => {
      for (let i = 0; i < 4; i++) passwordProblemNow(`${hard}${i}`);
    });
    // The least of three tries: judging in this thread stalls every try, while a collection of this thread's
    // heap (after a thousand tests, tens of ms) lands in one try at most (CI once saw 91 ms in one try).
    let offThread = Infinity;
    for (let attempt = 0; attempt < 3; attempt++) {
      offThread = Math.min(offThread, await longestStall(() => Promise.all(Array.from({ length: 4 }, (_, i) => judgePasswordOffThread(`${hard}${i}${attempt}`)))));
    }
    assert.ok(inThread >= 10, `judging in this thread held it ${inThread.toFixed(1)} ms`);
    assert.ok(offThread < inThread / 2, `off-thread judging held the event loop ${offThread.toFixed(1)} ms (in-thread: ${inThread.toFixed(1)} ms)`);
  });

  it('when no password has been judged for ten seconds, then the worker ends, and the next judgement starts it again', async () => {
    await judgePasswordOffThread('bench staple orbit 7 kettle');
    assert.equal(passwordJudgeRunning(), true);
    await new Promise((resolve) => setTimeout(resolve, 10_500));
    assert.equal(passwordJudgeRunning(), false);
    assert.equal((await judgePasswordOffThread('password123')).problem, PASSWORD_QUALITY_MESSAGES.common);
    assert.equal(passwordJudgeRunning(), true);
  });
});
