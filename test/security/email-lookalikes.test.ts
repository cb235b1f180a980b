import assert from 'node:assert/strict';
import request from 'supertest';
import type { Express } from 'express';
import { ctx } from '../support/context';
import { PASSWORD, makeUser, nextClientIp, payloadOf, proxiedApp } from '../support/auth';
import { createUserWithToken } from '../support/users';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import { foreignSpellings, lookalikes } from '../support/lookalikes';

// Issue 26, finding 1: an address reaches exactly one account, its own. Look-alikes of an address
// (accents, Cyrillic, fullwidth, the Kelvin sign, a trailing dot) are refused where they are typed, a
// different case is the same address, and an account stored under a look-alike (written before the
// rule, e.g. by the old OAuth path) is never reached by the real address: on MariaDB the email column
// compares exactly. Run with and without DATABASE_URL / REDIS_URL.

const INVALID_EMAIL = { error: 'Validation failed', errors: { email: 'must be a valid email address' } };
const NEW_PASSWORD = 'a-brand-new-passphrase-9';

describe('email look-alikes: password sign-in, registration, admin create, password reset', () => {
  let sink: SmtpSink;
  let app: Express;

  const from = (target: Express = app) => ({ post: (path: string) => request(target).post(path).set('X-Forwarded-For', nextClientIp()) });

  before(async () => {
    sink = await startSmtpSink();
    // Every request from its own client address: the per-IP limits stay out of the way.
    app = proxiedApp({ SMTP_URL: sink.url, EMAIL_FROM: 'auth@example.test' });
  });
  after(async () => {
    await sink.stop();
  });
  beforeEach(async () => {
    await ctx().models.Setting.destroy({ where: { key: 'security.allowRegistration' } });
  });

  describe('POST /auth/login', () => {
    it('when a look-alike of an account\'s address (or the address with a trailing dot) signs in with its password, then 400 and no token', async () => {
      const set = lookalikes();
      await makeUser({ email: set.real });
      for (const [name, email] of foreignSpellings(set)) {
        const res = await from().post('/auth/login').send({ email, password: PASSWORD });
        assert.equal(res.status, 400, `${name}: ${JSON.stringify(res.body)}`);
        assert.deepEqual(res.body, INVALID_EMAIL, name);
        assert.equal(res.headers['set-cookie'], undefined, name);
      }
    });

    it('when the address is typed in another case, then it signs in to the same account', async () => {
      const set = lookalikes();
      const user = await makeUser({ email: set.real });
      const res = await from().post('/auth/login').send({ email: set.upper, password: PASSWORD });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(payloadOf(res.body.token).sub, user.id);
    });

    it('when an account is stored under a look-alike, then its password does not sign in the real address', async () => {
      const set = lookalikes();
      await makeUser({ email: set.accent });
      const res = await from().post('/auth/login').send({ email: set.real, password: PASSWORD });
      assert.equal(res.status, 401, JSON.stringify(res.body));
      assert.deepEqual(res.body, { error: 'Invalid email or password' });
    });
  });

  describe('POST /auth/register', () => {
    it('when a look-alike of an existing address registers, then 400 (neither a duplicate nor a second account)', async () => {
      const set = lookalikes();
      await makeUser({ email: set.real });
      for (const [name, email] of foreignSpellings(set)) {
        const res = await from().post('/auth/register').send({ email, password: NEW_PASSWORD });
        assert.equal(res.status, 400, `${name}: ${JSON.stringify(res.body)}`);
        assert.deepEqual(res.body, INVALID_EMAIL, name);
      }
      assert.equal(await ctx().models.User.count({ where: { email: set.real } }), 1);
    });

    it('when the address registers again in another case, then 409', async () => {
      const set = lookalikes();
      await makeUser({ email: set.real });
      const res = await from().post('/auth/register').send({ email: set.upper, password: NEW_PASSWORD });
      assert.equal(res.status, 409, JSON.stringify(res.body));
    });

    it('when an account is stored under a look-alike, then the real address registers its own account (no 409 from the collation)', async () => {
      const set = lookalikes();
      const squatters = [await makeUser({ email: set.accent }), await makeUser({ email: set.fullwidth })];
      const res = await from().post('/auth/register').send({ email: set.real, password: NEW_PASSWORD });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.equal(res.body.user.email, set.real);
      assert.ok(!squatters.some((squatter) => squatter.id === res.body.user.id));
    });
  });

  describe('POST /api/users (admin create)', () => {
    async function adminHeader() {
      const { token } = await createUserWithToken('admin');
      return { Authorization: `Bearer ${token}` };
    }

    it('when an admin creates a look-alike of an existing address, then 400', async () => {
      const set = lookalikes();
      await makeUser({ email: set.real });
      const admin = await adminHeader();
      for (const [name, email] of foreignSpellings(set)) {
        const res = await request(app).post('/api/users').set(admin).send({ email, password: NEW_PASSWORD });
        assert.equal(res.status, 400, `${name}: ${JSON.stringify(res.body)}`);
        assert.deepEqual(res.body, INVALID_EMAIL, name);
      }
    });

    it('when an admin creates the address in another case, then 409', async () => {
      const set = lookalikes();
      await makeUser({ email: set.real });
      const res = await request(app).post('/api/users').set(await adminHeader()).send({ email: set.upper });
      assert.equal(res.status, 409, JSON.stringify(res.body));
    });

    it('when an account is stored under a look-alike, then the real address is created as its own account', async () => {
      const set = lookalikes();
      const squatter = await makeUser({ email: set.accent });
      const res = await request(app).post('/api/users').set(await adminHeader()).send({ email: set.real });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.equal(res.body.user.email, set.real);
      assert.notEqual(res.body.user.id, squatter.id);
    });
  });

  describe('POST /auth/request-password-reset', () => {
    const REQUESTED = { message: 'If an account with this email exists, a password reset link has been sent.' };

    async function requestRow(email: string) {
      const rows = await ctx().models.ActivityLog.findAll({ where: { action: 'auth.password_reset_requested' }, order: [['id', 'DESC']] });
      return rows.find((row) => row.email === email);
    }

    it('when a look-alike of an account\'s address asks, then 400 and no mail', async () => {
      const set = lookalikes();
      const user = await makeUser({ email: set.real });
      for (const [name, email] of foreignSpellings(set)) {
        const res = await from().post('/auth/request-password-reset').send({ email });
        assert.equal(res.status, 400, `${name}: ${JSON.stringify(res.body)}`);
      }
      assert.equal(await ctx().models.PasswordResetToken.count({ where: { userId: user.id } }), 0);
      assert.equal(sink.messages.filter((m) => m.envelope.to.includes(set.real)).length, 0);
    });

    it('when the address asks in another case, then the account\'s owner gets the link', async () => {
      const set = lookalikes();
      await makeUser({ email: set.real });
      const res = await from().post('/auth/request-password-reset').send({ email: set.upper });
      assert.equal(res.status, 200);
      await sink.waitFor((m) => m.envelope.to.includes(set.real));
    });

    it('when an account is stored under a look-alike, then a request for the real address finds no account and mails nobody', async () => {
      const set = lookalikes();
      const squatter = await makeUser({ email: set.accent });
      const res = await from().post('/auth/request-password-reset').send({ email: set.real });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, REQUESTED);
      const row = await requestRow(set.real);
      assert.ok(row, 'the request is recorded');
      assert.equal(row.userId, null);
      assert.deepEqual(row.details, { outcome: 'unknown_account' });
      // A control request delivered after it: had the look-alike's link been started, it would be out too.
      const control = await makeUser();
      await from().post('/auth/request-password-reset').send({ email: control.email });
      await sink.waitFor((m) => m.envelope.to.includes(control.email));
      assert.equal(await ctx().models.PasswordResetToken.count({ where: { userId: squatter.id } }), 0);
    });
  });
});
