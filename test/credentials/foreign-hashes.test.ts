import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import request from 'supertest';
import { bcrypt } from 'hash-wasm';
import { ctx } from '../support/context';
import { PASSWORD, makeUser, nextClientIp, proxiedApp } from '../support/auth';
import { ab64, b64, foreignHashesOf, salt } from '../support/foreign-hashes';
import { FOREIGN_HASH_MESSAGES, parseForeignHash } from '../../src/credentials/foreign-hashes';
import { createPasswordService, importedHashProblem } from '../../src/credentials/password.service';
import { createPasswordLogin } from '../../src/sign-in/password-login';
import { createAuthUserRecords } from '../../src/sessions/auth-user-records';
import { createAccountThrottle } from '../../src/credentials/account-throttle';
import { createDeviceCookies } from '../../src/sign-in/device-cookies';
import { createPasswordCheck } from '../../src/credentials/password-check';

describe('foreign password hashes (CONTRACT 17)', function () {
  this.timeout(60_000);
  let hashes: Record<string, string>;

  before(async () => {
    hashes = await foreignHashesOf(PASSWORD);
  });

  describe('parsing', () => {
    it('when each format is well formed and within bounds, then it is accepted for import', () => {
      for (const [label, hash] of Object.entries(hashes)) assert.equal(importedHashProblem(hash), null, label);
    });

    it('when a cost parameter is above the bounds, then the record is refused as over-cost', async () => {
      const overCost = [
        '$2b$15$' + 'a'.repeat(53),
        `$argon2id$v=19$m=524288,t=2,p=1$${b64(salt())}$${b64(salt())}${b64(salt())}`,
        `$argon2i$v=19$m=4096,t=100,p=1$${b64(salt())}$${b64(salt())}${b64(salt())}`,
        `$scrypt$ln=20,r=8,p=1$${b64(salt())}$${b64(crypto.randomBytes(32))}`,
        `$pbkdf2-sha256$5000000$${ab64(salt())}$${ab64(crypto.randomBytes(32))}`,
        `pbkdf2_sha256$9000000$abc123$${crypto.randomBytes(32).toString('base64')}`,
        `pbkdf2:3000000:${crypto.randomBytes(16).toString('hex')}:${crypto.randomBytes(32).toString('hex')}`,
      ];
      for (const hash of overCost) assert.equal(importedHashProblem(hash), FOREIGN_HASH_MESSAGES.overCost, hash);
    });

    it('when a hash is malformed or of no known format, then the record is refused with the reason', () => {
      const malformed = [
        hashes.bcrypt2b.slice(0, -1),
        '$2x$10$' + 'a'.repeat(53),
        hashes.argon2id.replace('v=19', 'v=16'),
        hashes.argon2id.replace(/m=\d+/, 'm=4'),
        hashes.scrypt.replace('ln=10', 'ln=0'),
        hashes.passlibSha256.slice(0, -2),
        hashes.django.replace('pbkdf2_sha256$3000', 'pbkdf2_sha256$0'),
        'pbkdf2:10:zz:zz',
      ];
      for (const hash of malformed) assert.notEqual(importedHashProblem(hash), null, hash);
      assert.equal(parseForeignHash('$2b$10$short').ok, false);
      assert.equal(importedHashProblem('md5$abc$def'), FOREIGN_HASH_MESSAGES.unknown);
    });
  });

  describe('sign-in', () => {
    it('when a user with each foreign hash signs in by POST /auth/login, then it works, a wrong password fails, and the hash becomes the service format', async () => {
      const app = proxiedApp();
      for (const [label, hash] of Object.entries(hashes)) {
        const user = await makeUser({ passwordHash: hash });
        const wrong = await request(app).post('/auth/login').set('X-Forwarded-For', nextClientIp()).send({ email: user.email, password: 'not the password' });
        assert.equal(wrong.status, 401, `${label}: wrong password`);
        assert.equal((await ctx().models.User.findByPk(user.id, { rejectOnEmpty: true })).passwordHash, hash, `${label}: kept after a failure`);
        const res = await request(app).post('/auth/login').set('X-Forwarded-For', nextClientIp()).send({ email: user.email, password: PASSWORD });
        assert.equal(res.status, 200, `${label}: ${JSON.stringify(res.body)}`);
        const stored = (await ctx().models.User.findByPk(user.id, { rejectOnEmpty: true })).passwordHash as string;
        assert.match(stored, new RegExp(`^pbkdf2:${ctx().config.passwordIterations}:`), `${label}: upgraded`);
        const again = await request(app).post('/auth/login').set('X-Forwarded-For', nextClientIp()).send({ email: user.email, password: PASSWORD });
        assert.equal(again.status, 200, `${label}: signs in with the new hash`);
      }
    });

    it('when two sign-ins with a foreign hash run in parallel, then both succeed and exactly one rewrites the hash', async () => {
      const { models, sequelize, store } = ctx();
      const logger = pino({ level: 'silent' });
      const passwords = createPasswordService({ iterations: ctx().config.passwordIterations });
      const login = createPasswordLogin({
        models,
        authUsers: createAuthUserRecords(sequelize),
        passwords,
        checkPassword: createPasswordCheck({ passwords, throttle: createAccountThrottle({ store, logger }), deviceThrottle: createAccountThrottle({ store, logger, name: 'device-throttle' }) }),
        verification: { passwordSignInAllowed: async () => true },
        devices: createDeviceCookies({ secret: 'foreign-hashes-test-secret-0123456789' }),
        logger,
      });
      for (const label of ['bcrypt2b', 'argon2id', 'django']) {
        const user = await makeUser({ passwordHash: hashes[label] });
        const results = await Promise.all([login.check(user.email, PASSWORD), login.check(user.email, PASSWORD)]);
        assert.ok(results.every((result) => result.ok), label);
        assert.equal(results.filter((result) => result.ok && result.passwordRehashed).length, 1, `${label}: one upgrade`);
      }
    });
  });

  describe('event-loop time', () => {
    /** The event loop's busy milliseconds while `fn` runs (its idle time, waiting for threads and the pool, excluded). */
    async function loopBusyDuring(fn: () => Promise<unknown>): Promise<number> {
      const before = performance.eventLoopUtilization();
      await fn();
      return performance.eventLoopUtilization(before).active;
    }

    it('when a bcrypt, Argon2, scrypt or PBKDF2 hash is checked, then the event loop is busy no longer than for the service own hash', async () => {
      const passwords = createPasswordService({ iterations: ctx().config.passwordIterations });
      const own = await passwords.hash(PASSWORD);
      // bcrypt at cost 10 takes about 100 ms of CPU in JavaScript: on the event loop it would dwarf the allowance.
      const costly = { ...hashes, bcrypt10: await bcrypt({ password: PASSWORD, salt: salt(), costFactor: 10, outputType: 'encoded' }) };
      // Warm-up: threads started, modules loaded, the dummy hash made.
      await passwords.verify(PASSWORD, own);
      for (const hash of Object.values(costly)) await passwords.verify(PASSWORD, hash);
      /** The event loop's busy time of one check, the least of three: noise only adds, the check's own work stays in every run. */
      const leastBusy = async (hash: string): Promise<number> => {
        const runs: number[] = [];
        for (let run = 0; run < 3; run += 1) runs.push(await loopBusyDuring(async () => assert.equal((await passwords.verify(PASSWORD, hash)).ok, true)));
        return Math.min(...runs);
      };
      const ownBusy = await leastBusy(own);
      for (const [label, hash] of Object.entries(costly)) {
        const busy = await leastBusy(hash);
        // A loaded 2-core host adds scheduling noise to both; the allowance is far below bcrypt's or Argon2's own cost.
        assert.ok(busy <= ownBusy + 15, `${label}: ${busy.toFixed(1)} ms busy vs ${ownBusy.toFixed(1)} ms for the own format`);
      }
    });
  });
});
