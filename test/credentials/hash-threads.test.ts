import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { createHashThreads, type HashThreads } from '../../src/credentials/hash-threads';

const job = (password: string, salt: Buffer, rounds = 1_000) => ({ password, salt, rounds, keyBytes: 32, digest: 'sha256' });

describe('hashing threads (PBKDF2 off the event loop and off libuv’s pool)', () => {
  let threads: HashThreads;
  afterEach(() => threads.stop());

  it('when a key is derived, then it is the PBKDF2-SHA256 node:crypto computes', async () => {
    threads = createHashThreads({ count: 2 });
    const salt = crypto.randomBytes(16);
    const key = await threads.derive(job('pw-12345678', salt, 10_000));
    assert.ok(Buffer.isBuffer(key));
    assert.deepEqual(key, crypto.pbkdf2Sync('pw-12345678', salt, 10_000, 32, 'sha256'));
  });

  it('when many keys are asked for at once, then each gets its own answer and no more threads start than allowed', async () => {
    threads = createHashThreads({ count: 2 });
    const salt = crypto.randomBytes(16);
    const passwords = Array.from({ length: 12 }, (_, i) => `password-${i}`);
    const keys = await Promise.all(passwords.map((password) => threads.derive(job(password, salt))));
    assert.equal(threads.size(), 2);
    passwords.forEach((password, i) => assert.deepEqual(keys[i], crypto.pbkdf2Sync(password, salt, 1_000, 32, 'sha256'), password));
  });

  it('when a slow hash runs, then the event loop stays free (a timer fires on time)', async () => {
    threads = createHashThreads({ count: 1 });
    const salt = crypto.randomBytes(16);
    await threads.derive(job('warm-up', salt));
    const hashing = threads.derive(job('slow', salt, 2_000_000));
    const lag = await new Promise<number>((resolve) => {
      const asked = performance.now();
      setTimeout(() => resolve(performance.now() - asked - 20), 20);
    });
    let done = false;
    await hashing.then(() => (done = true));
    assert.ok(lag < 50, `timer late by ${lag.toFixed(1)} ms`);
    assert.ok(done);
  });

  it('when a thread ends under a running hash, then the hash is finished on libuv’s pool, and the next one starts a thread again', async () => {
    threads = createHashThreads({ count: 1 });
    const salt = crypto.randomBytes(16);
    const running = threads.derive(job('cut-off', salt, 200_000));
    await new Promise((resolve) => setTimeout(resolve, 5));
    await threads.stop();
    assert.equal(threads.size(), 0);
    assert.deepEqual(await running, crypto.pbkdf2Sync('cut-off', salt, 200_000, 32, 'sha256'));
    assert.deepEqual(await threads.derive(job('again', salt)), crypto.pbkdf2Sync('again', salt, 1_000, 32, 'sha256'));
    assert.equal(threads.size(), 1);
  });

  it('when a thread ends on its own, then its job and the next ones are hashed on libuv’s pool, with no new thread started for a while', async () => {
    threads = createHashThreads({ count: 1 });
    const salt = crypto.randomBytes(16);
    await threads.derive(job('warm-up', salt));
    // The thread dies as it is handed the job (as a crash would end it), not through stop().
    const post = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (this: Worker) {
      Worker.prototype.postMessage = post;
      void this.terminate();
    } as typeof post;
    try {
      assert.deepEqual(await threads.derive(job('crashed', salt)), crypto.pbkdf2Sync('crashed', salt, 1_000, 32, 'sha256'));
    } finally {
      Worker.prototype.postMessage = post;
    }
    assert.equal(threads.size(), 0);
    assert.deepEqual(await threads.derive(job('after', salt)), crypto.pbkdf2Sync('after', salt, 1_000, 32, 'sha256'));
    assert.equal(threads.size(), 0, 'no thread is started again at once');
  });

  it('when no hash is asked for a while, then the threads stop', async () => {
    threads = createHashThreads({ count: 2, idleStopMs: 50 });
    const salt = crypto.randomBytes(16);
    await Promise.all([threads.derive(job('a', salt)), threads.derive(job('b', salt))]);
    assert.equal(threads.size(), 2);
    await new Promise((resolve) => setTimeout(resolve, 150));
    assert.equal(threads.size(), 0);
  });

  it('when a process has nothing left to do but a hash (a seeder), then it waits for it; idle threads keep no process alive', () => {
    const script = `
      const { createHashThreads } = require('./src/credentials/hash-threads');
      const threads = createHashThreads({ count: 1 });
      threads.derive({ password: 'seed', salt: Buffer.alloc(16), rounds: 200000, keyBytes: 32, digest: 'sha256' })
        .then((key) => console.log('derived ' + key.length));`;
    const started = performance.now();
    const out = execFileSync(process.execPath, ['--require', 'tsx/cjs', '-e', script], { cwd: path.resolve(__dirname, '../..'), encoding: 'utf8', timeout: 15_000 });
    assert.equal(out.trim(), 'derived 32');
    // The thread outlives the hash (stopped only after 15 s idle), yet the process ended at once.
    assert.ok(performance.now() - started < 10_000);
  });

  it('when a job is malformed, then it fails with a clear error and the thread goes on', async () => {
    threads = createHashThreads({ count: 1 });
    const salt = crypto.randomBytes(16);
    await assert.rejects(threads.derive({ ...job('x', salt), digest: 'no-such-digest' }), /hashing failed: .*digest/i);
    assert.deepEqual(await threads.derive(job('y', salt)), crypto.pbkdf2Sync('y', salt, 1_000, 32, 'sha256'));
  });
});
