import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { createHashThreads, type HashThreads } from '../../src/credentials/hash-threads';

const job = (password: string, salt: Buffer, rounds = 1_000) => ({ password, salt, rounds, keyBytes: 32, digest: 'sha256' });

/** Runs `derive` with the thread it hands its job to dying at once (as a crash would end it, not through stop()). */
async function diesWithJob(derive: () => Promise<Buffer>): Promise<Buffer> {
  const post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (this: Worker) {
    Worker.prototype.postMessage = post;
    void this.terminate();
  } as typeof post;
  try {
    return await derive();
  } finally {
    Worker.prototype.postMessage = post;
  }
}

const expected = (password: string, salt: Buffer, rounds = 1_000) => crypto.pbkdf2Sync(password, salt, rounds, 32, 'sha256');

describe('hashing threads (PBKDF2 off the event loop, and under load off libuv’s pool)', () => {
  let threads: HashThreads;
  afterEach(() => threads.stop());

  it('when a key is derived alone (on libuv’s pool) or while another hash runs (on a thread), then it is the PBKDF2-SHA256 node:crypto computes', async () => {
    threads = createHashThreads({ count: 2 });
    const salt = crypto.randomBytes(16);
    const alone = await threads.derive(job('pw-12345678', salt, 10_000));
    assert.ok(Buffer.isBuffer(alone));
    assert.deepEqual(alone, expected('pw-12345678', salt, 10_000));
    assert.equal(threads.size(), 0, 'a lone hash starts no thread');
    const [first, second] = await Promise.all([threads.derive(job('first', salt, 10_000)), threads.derive(job('second', salt, 10_000))]);
    assert.equal(threads.size(), 1, 'the second hash, asked for while the first ran, started a thread');
    assert.deepEqual(first, expected('first', salt, 10_000));
    assert.deepEqual(second, expected('second', salt, 10_000));
  });

  it('when hashes come one at a time, then no thread is started (no memory held, no start-up wait)', async () => {
    threads = createHashThreads({ count: 2 });
    const salt = crypto.randomBytes(16);
    for (const password of ['one', 'two', 'three']) assert.deepEqual(await threads.derive(job(password, salt)), expected(password, salt));
    assert.equal(threads.size(), 0);
  });

  it('when many keys are asked for at once, then each gets its own answer and no more threads start than allowed', async () => {
    threads = createHashThreads({ count: 2 });
    const salt = crypto.randomBytes(16);
    const passwords = Array.from({ length: 12 }, (_, i) => `password-${i}`);
    const keys = await Promise.all(passwords.map((password) => threads.derive(job(password, salt))));
    assert.equal(threads.size(), 2);
    passwords.forEach((password, i) => assert.deepEqual(keys[i], expected(password, salt), password));
  });

  it('when hashing threads run (Linux), then they run at a lower priority than the event loop (nice 10), the main thread unchanged', async function () {
    if (process.platform !== 'linux') this.skip();
    /** The nice value of each of this process's threads (field 19 of /proc/<pid>/task/<tid>/stat). */
    const niceValues = () =>
      fs.readdirSync('/proc/self/task').map((tid) => {
        const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
        return { tid: Number(tid), nice: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]) };
      });
    const before = new Set(niceValues().map((t) => t.tid));
    threads = createHashThreads({ count: 2 });
    const salt = crypto.randomBytes(16);
    await Promise.all(Array.from({ length: 4 }, (_, i) => threads.derive(job(`p-${i}`, salt, 50_000))));
    assert.equal(threads.size(), 2);
    const values = niceValues();
    assert.equal(values.find((t) => t.tid === process.pid)?.nice, 0, 'the event loop keeps its priority');
    // The two threads started here (a worker brings a few helper threads of its own, which keep the process's value).
    assert.equal(values.filter((t) => !before.has(t.tid) && t.nice === 10).length, 2, JSON.stringify(values));
  });

  it('when a slow hash runs on a thread, then the event loop stays free (a timer fires on time)', async () => {
    threads = createHashThreads({ count: 1 });
    const salt = crypto.randomBytes(16);
    const onPool = threads.derive(job('on the pool', salt, 100_000));
    const hashing = threads.derive(job('slow', salt, 2_000_000));
    assert.equal(threads.size(), 1);
    const lag = await new Promise<number>((resolve) => {
      const asked = performance.now();
      setTimeout(() => resolve(performance.now() - asked - 20), 20);
    });
    assert.deepEqual(await hashing, expected('slow', salt, 2_000_000));
    await onPool;
    // The slow hash alone is hundreds of ms: run on this thread, it would hold the timer that long.
    assert.ok(lag < 150, `timer late by ${lag.toFixed(1)} ms`);
  });

  it('when a thread is stopped under a running hash, then the hash is finished on libuv’s pool, and load starts a thread again', async () => {
    threads = createHashThreads({ count: 1 });
    const salt = crypto.randomBytes(16);
    const onPool = threads.derive(job('on the pool', salt, 100_000));
    const running = threads.derive(job('cut-off', salt, 200_000));
    assert.equal(threads.size(), 1);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await threads.stop();
    assert.equal(threads.size(), 0);
    assert.deepEqual(await running, expected('cut-off', salt, 200_000));
    await onPool;
    await Promise.all([threads.derive(job('again', salt)), threads.derive(job('and again', salt))]);
    assert.equal(threads.size(), 1);
  });

  it('when a thread ends on its own, then its job and the next ones are hashed on libuv’s pool, with no new thread started for a while', async () => {
    threads = createHashThreads({ count: 1 });
    const salt = crypto.randomBytes(16);
    await Promise.all([threads.derive(job('warm-up', salt)), threads.derive(job('warm-up 2', salt))]);
    assert.equal(threads.size(), 1);
    assert.deepEqual(await diesWithJob(() => threads.derive(job('crashed', salt))), expected('crashed', salt));
    assert.equal(threads.size(), 0);
    const after = await Promise.all([threads.derive(job('after', salt)), threads.derive(job('after 2', salt))]);
    assert.deepEqual(after, [expected('after', salt), expected('after 2', salt)]);
    assert.equal(threads.size(), 0, 'no thread is started again at once, even under load');
  });

  it('when one of two threads dies and hashes then go to the pool, then the other thread still stops when idle', async () => {
    threads = createHashThreads({ count: 2, idleStopMs: 100 });
    const salt = crypto.randomBytes(16);
    await Promise.all([1, 2, 3].map((i) => threads.derive(job(`p${i}`, salt))));
    assert.equal(threads.size(), 2);
    assert.deepEqual(await diesWithJob(() => threads.derive(job('crashed', salt))), expected('crashed', salt));
    assert.equal(threads.size(), 1);
    await Promise.all([threads.derive(job('on the pool', salt)), threads.derive(job('on the pool 2', salt))]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(threads.size(), 0);
  });

  it('when no hash is asked for a while, then the threads stop', async () => {
    threads = createHashThreads({ count: 2, idleStopMs: 50 });
    const salt = crypto.randomBytes(16);
    await Promise.all([1, 2, 3].map((i) => threads.derive(job(`p${i}`, salt))));
    assert.equal(threads.size(), 2);
    await new Promise((resolve) => setTimeout(resolve, 150));
    assert.equal(threads.size(), 0);
  });

  it('when a process has nothing left to do but hashes (a seeder), then it waits for them; idle threads keep no process alive', () => {
    const script = `
      const { createHashThreads } = require('./src/credentials/hash-threads');
      const threads = createHashThreads({ count: 1 });
      const job = (password) => ({ password, salt: Buffer.alloc(16), rounds: 200000, keyBytes: 32, digest: 'sha256' });
      // Two at once: the second runs on a thread.
      Promise.all([threads.derive(job('seed')), threads.derive(job('seed 2'))])
        .then((keys) => console.log('derived ' + keys.map((key) => key.length).join(' ') + ' on ' + threads.size() + ' thread'));`;
    const started = performance.now();
    const out = execFileSync(process.execPath, ['--require', 'tsx/cjs', '-e', script], { cwd: path.resolve(__dirname, '../..'), encoding: 'utf8', timeout: 15_000 });
    assert.equal(out.trim(), 'derived 32 32 on 1 thread');
    // The thread outlives the hash (stopped only after 15 s idle), yet the process ended at once.
    assert.ok(performance.now() - started < 10_000);
  });

  it('when a job is malformed, then it fails with a clear error, on the pool or on a thread, and the thread goes on', async () => {
    threads = createHashThreads({ count: 1 });
    const salt = crypto.randomBytes(16);
    const malformed = { ...job('x', salt), digest: 'no-such-digest' };
    await assert.rejects(threads.derive(malformed), /hashing failed: .*digest/i);
    const onPool = threads.derive(job('on the pool', salt, 50_000));
    await assert.rejects(threads.derive(malformed), /hashing failed: .*digest/i);
    assert.equal(threads.size(), 1);
    await onPool;
    const [y, z] = await Promise.all([threads.derive(job('y', salt)), threads.derive(job('z', salt))]);
    assert.deepEqual([y, z], [expected('y', salt), expected('z', salt)]);
  });
});
