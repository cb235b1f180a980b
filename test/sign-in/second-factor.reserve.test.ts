import assert from 'node:assert/strict';
import request from 'supertest';
import type { Express } from 'express';
import { ctx } from '../support/context';
import { PASSWORD, makeUser, nextClientIp, proxiedApp, tokenFor } from '../support/auth';
import { awayFromStepEnd, codeFor, enrolTotp } from '../support/totp';
import type { User } from '../../src/models';

/** A code that is not the one the app shows now (nor one step either side). */
const wrongCode = (secret: string) => {
  const near = new Set([-1, 0, 1, 2].map((step) => codeFor(secret, step)));
  for (let n = 0; ; n++) {
    const code = String(n).padStart(6, '0');
    if (!near.has(code)) return code;
  }
};

/** CONTRACT 9: second-factor answers are reserved (per challenge, per account) before they are judged. */
describe('second-factor answers: reserve, then judge', () => {
  let app: Express;
  before(() => {
    app = proxiedApp();
  });

  async function enrolled(): Promise<{ user: User; secret: string }> {
    const user = await makeUser();
    const { secret } = await enrolTotp(app, await tokenFor(user));
    await awayFromStepEnd(6);
    return { user, secret };
  }

  async function challengeFor(user: User): Promise<string> {
    const res = await request(app).post('/auth/login').set('X-Forwarded-For', nextClientIp()).send({ email: user.email, password: PASSWORD });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.twoFactorRequired, true);
    return res.body.challenge as string;
  }

  const answer = (challenge: string, body: Record<string, unknown>) =>
    request(app).post('/auth/2fa/verify').set('X-Forwarded-For', nextClientIp()).send({ challenge, ...body });

  /** The answers that were compared: each wrong one judged leaves a `wrong_answer` activity row. */
  async function judgedWrong(user: User): Promise<number> {
    const rows = await ctx().models.ActivityLog.findAll({ where: { userId: user.id, action: 'auth.login_failed' } });
    return rows.filter((row) => (row.details as { reason?: string }).reason === 'wrong_answer').length;
  }

  it('when 12 wrong codes answer one challenge at once, then exactly 5 are judged and the challenge is dead, even for the right code', async () => {
    const { user, secret } = await enrolled();
    const challenge = await challengeFor(user);
    const results = await Promise.all(Array.from({ length: 12 }, () => answer(challenge, { code: wrongCode(secret) })));
    assert.deepEqual(results.map((res) => res.status), Array(12).fill(401));
    assert.ok(results.every((res) => res.body.error === 'Invalid code'));
    assert.equal(await judgedWrong(user), 5);
    assert.equal((await answer(challenge, { code: codeFor(secret) })).status, 401);
  });

  it('when 15 wrong codes answer three challenges of one account at once, then at most 10 are judged (the account throttle) and the rest are 429', async () => {
    const { user, secret } = await enrolled();
    const challenges = [await challengeFor(user), await challengeFor(user), await challengeFor(user)];
    const results = await Promise.all(challenges.flatMap((challenge) => Array.from({ length: 5 }, () => answer(challenge, { code: wrongCode(secret) }))));
    const statuses = results.map((res) => res.status);
    assert.equal(await judgedWrong(user), 10);
    assert.equal(statuses.filter((status) => status === 401).length, 10);
    assert.equal(statuses.filter((status) => status === 429).length, 5);
  });

  it('when the right code answers a fresh challenge, then it signs in and counts nothing against the account', async () => {
    const { user, secret } = await enrolled();
    const challenge = await challengeFor(user);
    const res = await answer(challenge, { code: codeFor(secret, 1) });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.ok(res.body.token);
    assert.equal(await judgedWrong(user), 0);
  });
});
