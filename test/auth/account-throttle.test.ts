import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import request from 'supertest';
import type { Express } from 'express';
import pino from 'pino';
import { ctx, buildApp, uniqueEmail } from '../support/context';
import { makeUser, PASSWORD } from '../support/auth';
import { createAccountThrottle, ACCOUNT_THROTTLE } from '../../src/auth/account-throttle';
import { hashResetToken } from '../../src/services/password-reset.service';

const TOO_MANY = { error: 'Too many requests. Please try again later.' };

/** Every attempt from its own client address (TRUST_PROXY on), so only the per-account throttle can refuse. */
function login(app: Express, email: string, password: string) {
  const ip = `203.0.${crypto.randomInt(256)}.${crypto.randomInt(1, 255)}`;
  return request(app).post('/auth/login').set('X-Forwarded-For', ip).set('Accept', 'application/json').send({ email, password });
}

async function failTimes(app: Express, email: string, times: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < times; i++) statuses.push((await login(app, email, `wrong-${i}-password`)).status);
  return statuses;
}

describe('account throttle: password sign-in per email, across client addresses', () => {
  let app: Express;
  before(() => {
    app = buildApp({ env: { TRUST_PROXY: 'true' } });
  });

  it('when one email fails 10 times from 10 addresses, then the 11th attempt is 429 with Retry-After, even with the right password', async () => {
    const user = await makeUser();
    assert.deepEqual(await failTimes(app, user.email, ACCOUNT_THROTTLE.maxFailures), Array(10).fill(401));
    const res = await login(app, user.email, PASSWORD);
    assert.equal(res.status, 429);
    assert.deepEqual(res.body, TOO_MANY);
    const retryAfter = Number(res.headers['retry-after']);
    assert.ok(retryAfter > 15 * 60 - 60 && retryAfter <= 15 * 60, `Retry-After ${retryAfter}`);
    assert.equal(res.headers['set-cookie'], undefined);
  });

  it('when the failures went to another instance on the same store, then this one refuses too', async () => {
    const other = buildApp({ env: { TRUST_PROXY: 'true' } });
    const user = await makeUser();
    await failTimes(other, user.email, 10);
    assert.equal((await login(app, user.email, PASSWORD)).status, 429);
  });

  it('when the email has no account, then the answers are the same, status by status, body by body', async () => {
    const known = await makeUser();
    const unknown = uniqueEmail('nobody');
    const answers = async (email: string) => {
      const out: Array<{ status: number; body: unknown; retryAfter: boolean }> = [];
      for (let i = 0; i < 12; i++) {
        const res = await login(app, email, `guess-${i}-password`);
        out.push({ status: res.status, body: res.body, retryAfter: res.headers['retry-after'] !== undefined });
      }
      return out;
    };
    const forKnown = await answers(known.email);
    const forUnknown = await answers(unknown);
    assert.deepEqual(forUnknown, forKnown);
    assert.deepEqual(forKnown.map((a) => a.status), [...Array(10).fill(401), 429, 429]);
  });

  it('when 25 guesses for one email arrive at once, then exactly 10 are checked and 15 refused', async () => {
    const user = await makeUser();
    const results = await Promise.all(Array.from({ length: 25 }, (_, i) => login(app, user.email, `parallel-${i}-guess`)));
    const statuses = results.map((res) => res.status).sort();
    assert.deepEqual(statuses, [...Array(10).fill(401), ...Array(15).fill(429)]);
  });

  it('when the email is written differently (case, spaces), then it is the same account', async () => {
    const user = await makeUser();
    for (let i = 0; i < 10; i++) await login(app, i % 2 ? user.email.toUpperCase() : `  ${user.email} `, 'wrong-password-x');
    assert.equal((await login(app, user.email, PASSWORD)).status, 429);
  });

  it('when the right password comes before the limit, then the failures are forgotten', async () => {
    const user = await makeUser();
    await failTimes(app, user.email, 9);
    assert.equal((await login(app, user.email, PASSWORD)).status, 200);
    assert.deepEqual(await failTimes(app, user.email, 10), Array(10).fill(401));
  });

  it('when the password is reset, then the throttle is lifted at once', async () => {
    const user = await makeUser();
    await failTimes(app, user.email, 10);
    assert.equal((await login(app, user.email, PASSWORD)).status, 429);
    const token = crypto.randomBytes(32).toString('base64url');
    await ctx().models.PasswordResetToken.create({
      id: crypto.randomUUID(),
      userId: user.id,
      tokenHash: hashResetToken(token),
      expiresAt: new Date(Date.now() + 3600_000),
    });
    const reset = await request(app).post('/auth/reset-password').set('X-Forwarded-For', '198.51.100.77').send({ token, password: 'a-new-password-1' });
    assert.equal(reset.status, 200);
    assert.equal((await login(app, user.email, 'a-new-password-1')).status, 200);
  });

  it('when a throttled attempt is refused, then the activity log says why, without the password', async () => {
    const user = await makeUser();
    await failTimes(app, user.email, 11);
    const rows = await ctx().models.ActivityLog.findAll({ where: { userId: user.id, action: 'auth.login_failed' } });
    const reasons = rows.map((row) => (row.details as { reason: string }).reason);
    assert.equal(reasons.filter((r) => r === 'wrong_password').length, 10);
    assert.equal(reasons.filter((r) => r === 'throttled').length, 1);
    assert.ok(!JSON.stringify(rows.map((row) => row.toJSON())).includes('wrong-'));
  });

  describe('the counter', () => {
    it('when the window ends, then attempts are allowed again', async () => {
      const throttle = createAccountThrottle({ store: ctx().store, logger: pino({ level: 'silent' }), rule: { maxFailures: 2, windowSeconds: 0.5 } });
      const email = uniqueEmail('window');
      assert.deepEqual(await throttle.reserve(email), { allowed: true });
      assert.deepEqual(await throttle.reserve(email), { allowed: true });
      const blocked = await throttle.reserve(email);
      assert.equal(blocked.allowed, false);
      await new Promise((resolve) => setTimeout(resolve, 700));
      assert.deepEqual(await throttle.reserve(email), { allowed: true });
    });

    it('when the store fails, then the attempt is allowed (the per-IP limit still holds)', async () => {
      const broken = { ...ctx().store, increment: async () => Promise.reject(new Error('store down')) };
      const throttle = createAccountThrottle({ store: broken, logger: pino({ level: 'silent' }), rule: { maxFailures: 0 } });
      assert.deepEqual(await throttle.reserve(uniqueEmail()), { allowed: true });
    });
  });
});
