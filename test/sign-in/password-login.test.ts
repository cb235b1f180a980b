import assert from 'node:assert/strict';
import pino from 'pino';
import { ctx, uniqueEmail } from '../support/context';
import { makeUser, PASSWORD } from '../support/auth';
import { createPasswordLogin } from '../../src/sign-in/password-login';
import { createPasswordService } from '../../src/credentials/password.service';
import { createHashThreads, type HashThreads } from '../../src/credentials/hash-threads';
import { createAuthUserRecords } from '../../src/sessions/auth-user-records';
import { createAccountThrottle } from '../../src/credentials/account-throttle';
import { createDeviceCookies } from '../../src/sign-in/device-cookies';
import { createPasswordCheck } from '../../src/credentials/password-check';
import { AppError } from '../../src/http/app-error';

/**
 * The hashing threads, counting the PBKDF2 runs handed to them: every run of every service method goes
 * through `derive`, whichever path asked for it.
 */
const hashing = createHashThreads({ count: 1 });
let runs = 0;
const countingThreads: HashThreads = { ...hashing, derive: (job) => ((runs += 1), hashing.derive(job)) };

async function pbkdf2RunsDuring<T>(fn: () => Promise<T>): Promise<{ runs: number; result: T }> {
  const before = runs;
  const result = await fn();
  return { runs: runs - before, result };
}

describe('password login (the passport-local verify step)', () => {
  const logger = pino({ level: 'silent' });
  // A small iteration count keeps the test fast; the users' stored hashes (10 000) need no re-hash.
  const passwords = createPasswordService({ iterations: 1_000, threads: countingThreads });
  let login: ReturnType<typeof createPasswordLogin>;

  before(async () => {
    const { models, sequelize, store } = ctx();
    login = createPasswordLogin({
      models,
      authUsers: createAuthUserRecords(sequelize),
      passwords,
      checkPassword: createPasswordCheck({ passwords, throttle: createAccountThrottle({ store, logger }), deviceThrottle: createAccountThrottle({ store, logger, name: 'device-throttle' }) }),
      verification: { passwordSignInAllowed: async () => true },
      devices: createDeviceCookies({ secret: 'device-cookie-test-secret-0123456789' }),
      logger,
    });
    // The dummy hash is made once per process: make it now, so the counts below are the steady state.
    await passwords.verifyAgainstDummy('warm-up');
  });

  it('when the password is right, then the check costs exactly one PBKDF2 run (the cost every failure must match)', async () => {
    const user = await makeUser();
    const { runs, result } = await pbkdf2RunsDuring(() => login.check(user.email, PASSWORD));
    assert.equal(result.ok, true);
    assert.equal(runs, 1);
  });

  it('when the email is unknown, the password wrong, the user deactivated or without a password, then each costs exactly one PBKDF2 run', async () => {
    const wrong = await makeUser();
    const inactive = await makeUser({ active: false });
    const passwordless = await makeUser({ password: null });
    const cases: Array<[label: string, email: string, password: string, reason: string]> = [
      ['unknown email', uniqueEmail('nobody'), PASSWORD, 'unknown_email'],
      ['wrong password', wrong.email, 'not-the-password', 'wrong_password'],
      ['deactivated user', inactive.email, PASSWORD, 'inactive'],
      ['user without a password', passwordless.email, PASSWORD, 'wrong_password'],
    ];
    for (const [label, email, password, reason] of cases) {
      const { runs, result } = await pbkdf2RunsDuring(() => login.check(email, password));
      assert.equal(result.ok, false, label);
      assert.equal(!result.ok && result.reason, reason, label);
      assert.equal(runs, 1, `${label}: PBKDF2 runs`);
    }
  });

  it('when the hashing queue is full for an unknown browser, then the sign-in is a 429 with Retry-After before any read, reservation or hash', async () => {
    const { models, sequelize, store } = ctx();
    const user = await makeUser();
    let reads = 0;
    const records = createAuthUserRecords(sequelize);
    const full = createPasswordLogin({
      models,
      authUsers: { ...records, byEmail: (email: string) => ((reads += 1), records.byEmail(email)) },
      passwords: { ...passwords, admits: (lane) => (lane === 'open' ? { ok: false, retryAfterSeconds: 2 } : { ok: true }) },
      checkPassword: createPasswordCheck({ passwords, throttle: createAccountThrottle({ store, logger }), deviceThrottle: createAccountThrottle({ store, logger, name: 'device-throttle' }) }),
      verification: { passwordSignInAllowed: async () => true },
      devices: createDeviceCookies({ secret: 'device-cookie-test-secret-0123456789' }),
      logger,
    });
    const { runs, result } = await pbkdf2RunsDuring(() => full.check(user.email, PASSWORD).then(() => null, (err: unknown) => err));
    assert.ok(result instanceof AppError && result.status === 429, String(result));
    assert.equal(result.options.headers?.['Retry-After'], '2');
    assert.equal(reads, 0, 'no database read');
    assert.equal(runs, 0, 'no hash');
    // The same browser with its device cookie is in the known lane, which still has room.
    const device = createDeviceCookies({ secret: 'device-cookie-test-secret-0123456789' }).issue(user.email);
    const known = await full.check(user.email, PASSWORD, device);
    assert.equal(known.ok, true);
  });
});
