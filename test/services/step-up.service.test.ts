import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import request from 'supertest';
import type { Express } from 'express';
import { PASSWORD, makeUser, nextClientIp, proxiedApp, tokenFor } from '../support/auth';
import { awayFromStepEnd, codeFor, enrolTotp } from '../support/totp';
import type { User } from '../../src/models';

/** CONTRACT 9 step-up: what proves it (a second factor when there is one) and how guesses are reserved before they are judged. */
describe('step-up proofs (POST /auth/step-up)', () => {
  let app: Express;
  before(() => {
    app = proxiedApp();
  });

  /** A token of a sign-in made an hour ago (its session row made too). */
  const oldAuth = async (user: User) => ({ Authorization: `Bearer ${await tokenFor(user, { sid: crypto.randomUUID(), authTime: Math.floor(Date.now() / 1000) - 3600 })}` });
  const stepUp = (auth: Record<string, string>, body: Record<string, unknown>) => request(app).post('/auth/step-up').set('X-Forwarded-For', nextClientIp()).set(auth).send(body);

  it('when a user with TOTP steps up with the password alone, then it is refused, naming that a code is needed; a code or a recovery code steps up', async () => {
    const user = await makeUser();
    const { secret, recoveryCodes } = await enrolTotp(app, await tokenFor(user));
    await awayFromStepEnd();
    const auth = await oldAuth(user);
    const refused = await stepUp(auth, { password: PASSWORD });
    assert.equal(refused.status, 400);
    assert.match(refused.body.error, /code/);
    assert.match(refused.body.error, /not your password alone/);
    assert.equal(refused.body.token, undefined);

    const byCode = await stepUp(auth, { code: codeFor(secret, 1) });
    assert.equal(byCode.status, 200, JSON.stringify(byCode.body));
    assert.ok(byCode.body.token);
    const byRecovery = await stepUp(auth, { recoveryCode: recoveryCodes[0] });
    assert.equal(byRecovery.status, 200, JSON.stringify(byRecovery.body));
    const spent = await stepUp(auth, { recoveryCode: recoveryCodes[0] });
    assert.equal(spent.status, 400);
    assert.ok(spent.body.errors.recoveryCode);
  });

  it('when a user without a second factor steps up with the password, then it still works', async () => {
    const user = await makeUser();
    const res = await stepUp(await oldAuth(user), { password: PASSWORD });
    assert.equal(res.status, 200);
  });

  it('when 20 wrong step-up codes arrive at once, then exactly 10 are judged (the account throttle) and the rest are 429', async () => {
    const user = await makeUser();
    const { secret } = await enrolTotp(app, await tokenFor(user));
    const near = new Set([-1, 0, 1, 2].map((step) => codeFor(secret, step)));
    const wrong = ['000000', '111111', '222222', '333333', '444444'].find((code) => !near.has(code)) as string;
    const auth = await oldAuth(user);
    const results = await Promise.all(Array.from({ length: 20 }, () => stepUp(auth, { code: wrong })));
    const statuses = results.map((res) => res.status);
    assert.equal(statuses.filter((status) => status === 400).length, 10, JSON.stringify(results.map((res) => res.body)));
    assert.equal(statuses.filter((status) => status === 429).length, 10);
  });

  it('when 15 step-ups with the right password run at once, then none is refused by the reservation', async () => {
    const user = await makeUser();
    const auth = await oldAuth(user);
    const results = await Promise.all(Array.from({ length: 15 }, () => stepUp(auth, { password: PASSWORD })));
    assert.deepEqual(results.map((res) => res.status), Array(15).fill(200));
  });
});
