import assert from 'node:assert/strict';
import request from 'supertest';
import type { Express } from 'express';
import { ctx, uniqueEmail } from '../support/context';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import { createTestUser, createUserWithToken } from '../support/users';
import { PASSWORD, makeUser, nextClientIp, proxiedApp } from '../support/auth';
import { configureOtp, mailedOtpCode, wrongOtpCode } from '../support/otp';
import { ACCOUNT_THROTTLE } from '../../src/credentials/account-throttle';

const TOO_MANY = { error: 'Too many requests. Please try again later.' };

describe('OTP sign-in: wrong codes count in the per-account throttle', () => {
  let sink: SmtpSink;
  let app: Express;
  let admin: { Authorization: string };

  /** Every request from its own client address: only the per-account throttle can refuse. */
  const verify = (email: string, code: string) => request(app).post('/auth/otp/verify').set('X-Forwarded-For', nextClientIp()).send({ email, code });
  const codeFor = (email: string) => mailedOtpCode(app, sink, email, nextClientIp());

  /** Spends `count` wrong guesses, a new code every `maxAttempts` of them (as an attacker would). */
  async function guessWrong(email: string, count: number, maxAttempts: number): Promise<number[]> {
    const statuses: number[] = [];
    let code = '';
    for (let i = 0; i < count; i++) {
      if (i % maxAttempts === 0) code = await codeFor(email);
      statuses.push((await verify(email, wrongOtpCode(code))).status);
    }
    return statuses;
  }

  before(async () => {
    sink = await startSmtpSink();
    app = proxiedApp({ SMTP_URL: sink.url, EMAIL_FROM: 'auth@example.test' });
    const { token } = await createUserWithToken('admin');
    admin = { Authorization: `Bearer ${token}` };
  });

  beforeEach(async () => {
    await ctx().models.Plugin.destroy({ where: {} });
    // The weak settings of the review: 4 digits, many codes an hour.
    await configureOtp(app, admin, { codeLength: 4, maxAttempts: 4, rateLimitPerHour: 100 });
  });

  after(async () => {
    // Other suites expect every plugin inactive with its defaults.
    await ctx().models.Plugin.destroy({ where: {} });
    await sink.stop();
  });

  it('when wrong codes across several codes reach the throttle limit, then a later right code is 429 and signs nobody in', async () => {
    const user = await createTestUser('viewer');
    assert.deepEqual(await guessWrong(user.email, ACCOUNT_THROTTLE.maxFailures, 4), Array(ACCOUNT_THROTTLE.maxFailures).fill(401));

    const code = await codeFor(user.email);
    const right = await verify(user.email, code);
    assert.equal(right.status, 429);
    assert.deepEqual(right.body, TOO_MANY);
    assert.ok(Number(right.headers['retry-after']) > 0);
    assert.equal(right.headers['set-cookie'], undefined);
    // Refused unread: the code was not even counted as an attempt.
    const row = await ctx().models.OtpCode.findOne({ where: { userEmail: user.email } });
    assert.equal(row?.attempts, 0);
  });

  it('when wrong passwords and wrong codes mix, then they share one counter', async () => {
    const user = await makeUser();
    for (let i = 0; i < 5; i++) {
      const res = await request(app).post('/auth/login').set('X-Forwarded-For', nextClientIp()).send({ email: user.email, password: `wrong-${i}-password` });
      assert.equal(res.status, 401);
    }
    assert.deepEqual(await guessWrong(user.email, 5, 4), Array(5).fill(401));
    assert.equal((await verify(user.email, await codeFor(user.email))).status, 429);
    const login = await request(app).post('/auth/login').set('X-Forwarded-For', nextClientIp()).send({ email: user.email, password: PASSWORD });
    assert.equal(login.status, 429);
  });

  it('when the email has no account, then its guesses are throttled the same way (no enumeration)', async () => {
    const known = await createTestUser('viewer');
    const unknown = uniqueEmail('nobody');
    const statuses = async (email: string) => {
      const out: number[] = [];
      for (let i = 0; i < ACCOUNT_THROTTLE.maxFailures + 2; i++) {
        // An unknown email gets a stored code too (no mail): guesses are compared against it.
        if (i % 4 === 0) await request(app).post('/auth/otp/request').set('X-Forwarded-For', nextClientIp()).send({ email });
        out.push((await verify(email, '0000')).status);
      }
      return out;
    };
    const expected = [...Array(ACCOUNT_THROTTLE.maxFailures).fill(401), 429, 429];
    assert.deepEqual(await statuses(unknown), expected);
    assert.deepEqual([...(await guessWrong(known.email, ACCOUNT_THROTTLE.maxFailures, 4)), (await verify(known.email, '0000')).status], expected.slice(0, -1));
    const last = await verify(unknown, '0000');
    assert.deepEqual([last.status, last.body], [429, TOO_MANY]);
  });

  it('when the right code comes before the limit, then it signs in and the failures are forgotten', async () => {
    const user = await createTestUser('viewer');
    await guessWrong(user.email, ACCOUNT_THROTTLE.maxFailures - 1, 4);
    assert.equal((await verify(user.email, await codeFor(user.email))).status, 200);
    assert.deepEqual(await guessWrong(user.email, ACCOUNT_THROTTLE.maxFailures - 1, 4), Array(ACCOUNT_THROTTLE.maxFailures - 1).fill(401));
  });

  it('when a blocked account is tried 20 more times, then the activity log has one throttled row counting them', async () => {
    const user = await createTestUser('viewer');
    await guessWrong(user.email, ACCOUNT_THROTTLE.maxFailures, 4);
    for (let i = 0; i < 20; i++) assert.equal((await verify(user.email, '1234')).status, 429);
    const rows = await ctx().models.ActivityLog.findAll({ where: { action: 'auth.login_failed', email: user.email } });
    const throttled = rows.filter((row) => (row.details as { reason?: string }).reason === 'throttled');
    assert.deepEqual(throttled.map((row) => row.details), [{ method: 'otp', reason: 'throttled', count: 20 }]);
  });
});
