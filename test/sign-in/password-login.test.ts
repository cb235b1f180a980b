import assert from 'node:assert/strict';
import { createHook } from 'node:async_hooks';
import pino from 'pino';
import { ctx, uniqueEmail } from '../support/context';
import { makeUser, PASSWORD } from '../support/auth';
import { createPasswordLogin } from '../../src/sign-in/password-login';
import { createPasswordService } from '../../src/credentials/password.service';
import { createAuthUserRecords } from '../../src/sessions/auth-user-records';
import { createAccountThrottle } from '../../src/credentials/account-throttle';
import { createPasswordCheck } from '../../src/credentials/password-check';

/**
 * The PBKDF2 runs `fn` starts, counted where node:crypto hands them to the thread pool (each run is one
 * async resource of type PBKDF2REQUEST), so every path is seen, whichever service method it goes through.
 */
async function pbkdf2RunsDuring<T>(fn: () => Promise<T>): Promise<{ runs: number; result: T }> {
  let runs = 0;
  const hook = createHook({
    init(_id, type) {
      if (type === 'PBKDF2REQUEST') runs += 1;
    },
  });
  hook.enable();
  try {
    const result = await fn();
    return { runs, result };
  } finally {
    hook.disable();
  }
}

describe('password login (the passport-local verify step)', () => {
  const logger = pino({ level: 'silent' });
  // A small iteration count keeps the test fast; the users' stored hashes (10 000) need no re-hash.
  const passwords = createPasswordService({ iterations: 1_000 });
  let login: ReturnType<typeof createPasswordLogin>;

  before(async () => {
    const { models, sequelize, store } = ctx();
    login = createPasswordLogin({
      models,
      authUsers: createAuthUserRecords(sequelize),
      passwords,
      checkPassword: createPasswordCheck({ passwords, throttle: createAccountThrottle({ store, logger }) }),
      verification: { passwordSignInAllowed: async () => true },
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
});
