import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { createPasswordService } from '../../src/credentials/password.service';

describe('password service', () => {
  const passwords = createPasswordService({ iterations: 10_000 });

  it('when a password is hashed, then the stored form is pbkdf2:<iterations>:<16-byte salt>:<32-byte key> with a fresh salt', async () => {
    const first = await passwords.hash('s3cret-pass');
    const second = await passwords.hash('s3cret-pass');
    assert.match(first, /^pbkdf2:10000:[0-9a-f]{32}:[0-9a-f]{64}$/);
    assert.notEqual(first, second);
  });

  it('when the stored hash is PBKDF2-SHA256, then it matches node:crypto computed independently', async () => {
    const salt = crypto.randomBytes(16);
    const key = crypto.pbkdf2Sync('pw-12345678', salt, 10_000, 32, 'sha256');
    const stored = `pbkdf2:10000:${salt.toString('hex')}:${key.toString('hex')}`;
    assert.deepEqual(await passwords.verify('pw-12345678', stored), { ok: true, needsRehash: false });
    assert.deepEqual(await passwords.verify('pw-12345679', stored), { ok: false, needsRehash: false });
  });

  it('when the stored hash has fewer iterations than configured, then a right password asks for a re-hash', async () => {
    const weaker = await createPasswordService({ iterations: 5_000 }).hash('pw-12345678');
    assert.deepEqual(await passwords.verify('pw-12345678', weaker), { ok: true, needsRehash: true });
    assert.deepEqual(await passwords.verify('wrong-password', weaker), { ok: false, needsRehash: false });
  });

  it('when the stored hash is a legacy SHA-256 (bare hex or sha256:), then it verifies and asks for a re-hash', async () => {
    const hex = crypto.createHash('sha256').update('legacy-pass').digest('hex');
    for (const stored of [hex, `sha256:${hex}`, hex.toUpperCase()]) {
      assert.deepEqual(await passwords.verify('legacy-pass', stored), { ok: true, needsRehash: true });
      assert.deepEqual(await passwords.verify('legacy-pasS', stored), { ok: false, needsRehash: false });
    }
  });

  it('when the stored value is missing or malformed, then the check fails without throwing', async () => {
    for (const stored of [null, undefined, '', 'pbkdf2:abc:00:00', 'pbkdf2:0:' + '0'.repeat(32) + ':' + '0'.repeat(64), 'plain-text', 'sha256:xyz']) {
      assert.deepEqual(await passwords.verify('anything', stored), { ok: false, needsRehash: false });
    }
  });

  it('when checking against the dummy, then the answer is always a failure after real hashing work', async () => {
    const slow = createPasswordService({ iterations: 100_000 });
    await slow.verifyAgainstDummy('warm-up'); // the dummy hash itself is made once
    const started = process.hrtime.bigint();
    assert.deepEqual(await slow.verifyAgainstDummy('anything'), { ok: false, needsRehash: false });
    const dummyMs = Number(process.hrtime.bigint() - started) / 1e6;
    const stored = await slow.hash('real-password');
    const again = process.hrtime.bigint();
    await slow.verify('wrong-password', stored);
    const realMs = Number(process.hrtime.bigint() - again) / 1e6;
    // Same work (one PBKDF2 at the configured count): within a generous factor on a busy machine.
    assert.ok(dummyMs > realMs / 4 && dummyMs < realMs * 4, `dummy ${dummyMs} ms vs real ${realMs} ms`);
  });

  it('when many sign-ins hash at once, then libuv’s pool stays free for SQLite (no statement queues behind a hash)', async () => {
    const busy = createPasswordService({ iterations: 500_000 });
    const hashing = Promise.all(Array.from({ length: 8 }, (_, i) => busy.hash(`busy-password-${i}`)));
    // A job on libuv's pool, as every SQLite statement is (sqlite3 runs them there): it must not wait for the hashes.
    const asked = performance.now();
    await new Promise((resolve, reject) => crypto.pbkdf2('pool', 'salt', 1, 32, 'sha256', (err) => (err ? reject(err) : resolve(null))));
    const waited = performance.now() - asked;
    let pending = true;
    void hashing.then(() => (pending = false));
    await new Promise((resolve) => setImmediate(resolve));
    assert.ok(pending, 'the hashes were still running');
    assert.ok(waited < 50, `a pool job waited ${waited.toFixed(1)} ms behind the hashes`);
    await hashing;
  });
});
