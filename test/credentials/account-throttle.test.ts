import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import request from 'supertest';
import type { Express } from 'express';
import pino from 'pino';
import { ctx, buildApp, uniqueEmail } from '../support/context';
import { makeUser, PASSWORD } from '../support/auth';
import { createAccountThrottle, ACCOUNT_THROTTLE } from '../../src/credentials/account-throttle';
import { hashResetToken } from '../../src/services/sign-in-methods/password-reset.service';

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

  it('when 25 guesses for one email arrive at once, then each is 401 or 429 and the email is blocked afterwards', async () => {
    const user = await makeUser();
    const results = await Promise.all(Array.from({ length: 25 }, (_, i) => login(app, user.email, `parallel-${i}-guess`)));
    assert.ok(results.every((res) => res.status === 401 || res.status === 429));
    assert.equal((await login(app, user.email, PASSWORD)).status, 429);
  });

  it('when 30 sign-ins with the right password run at once, then all succeed (only failures count)', async () => {
    const user = await makeUser();
    const results = await Promise.all(Array.from({ length: 30 }, () => login(app, user.email, PASSWORD)));
    assert.deepEqual(results.map((res) => res.status), Array(30).fill(200));
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

  describe('refusals of a blocked account in the activity log', () => {
    const throttledRows = async (email: string) => {
      const rows = await ctx().models.ActivityLog.findAll({ where: { email, action: 'auth.login_failed' } });
      return rows.filter((row) => (row.details as { reason?: string } | null)?.reason === 'throttled');
    };

    it('when 50 attempts from 50 addresses hit a blocked account, then they add one row that counts them', async () => {
      const user = await makeUser();
      await failTimes(app, user.email, ACCOUNT_THROTTLE.maxFailures);
      const before = await ctx().models.ActivityLog.count();
      const statuses = await failTimes(app, user.email, 50);
      assert.deepEqual(statuses, Array(50).fill(429));
      assert.equal(await ctx().models.ActivityLog.count(), before + 1);
      const rows = await throttledRows(user.email);
      assert.equal(rows.length, 1);
      assert.deepEqual(rows[0].details, { method: 'password', reason: 'throttled', count: 50 });
      assert.equal(rows[0].userId, user.id);
    });

    it('when 50 attempts arrive at once, then they still add at most one row', async () => {
      const user = await makeUser();
      await failTimes(app, user.email, ACCOUNT_THROTTLE.maxFailures);
      const results = await Promise.all(Array.from({ length: 50 }, (_, i) => login(app, user.email, `parallel-${i}-guess`)));
      assert.ok(results.every((res) => res.status === 429));
      const rows = await throttledRows(user.email);
      assert.equal(rows.length, 1);
      const { count } = rows[0].details as { count: number };
      assert.ok(count >= 1 && count <= 50, `count ${count}`);
    });

    it('when wrong passwords stay below the limit, then each is its own row', async () => {
      const user = await makeUser();
      await failTimes(app, user.email, ACCOUNT_THROTTLE.maxFailures);
      const rows = await ctx().models.ActivityLog.findAll({ where: { email: user.email, action: 'auth.login_failed' } });
      assert.deepEqual(rows.map((row) => row.details), Array(ACCOUNT_THROTTLE.maxFailures).fill({ method: 'password', reason: 'wrong_password' }));
    });
  });

  describe('the counter', () => {
    it('when the window ends, then attempts are allowed again', async () => {
      const throttle = createAccountThrottle({ store: ctx().store, logger: pino({ level: 'silent' }), rule: { maxFailures: 2, windowSeconds: 0.5 } });
      const email = uniqueEmail('window');
      for (let i = 0; i < 2; i++) {
        const attempt = await throttle.reserve(email);
        assert.ok(attempt.ok);
        await attempt.failed();
      }
      const blocked = await throttle.reserve(email);
      assert.equal(blocked.ok, false);
      assert.equal(!blocked.ok && blocked.retryAfterSeconds, 1);
      await new Promise((resolve) => setTimeout(resolve, 700));
      assert.equal((await throttle.reserve(email)).ok, true);
    });

    it('when the store fails, then the attempt is allowed (the per-IP limit still holds)', async () => {
      const down = async () => Promise.reject(new Error('store down'));
      const broken = { ...ctx().store, get: down, getMany: down, increment: down, set: down, delete: down };
      const throttle = createAccountThrottle({ store: broken, logger: pino({ level: 'silent' }), rule: { maxFailures: 1 } });
      const email = uniqueEmail();
      for (let i = 0; i < 3; i++) {
        const attempt = await throttle.reserve(email);
        assert.ok(attempt.ok);
        await attempt.failed();
      }
      await throttle.clear(email);
    });
  });
});
