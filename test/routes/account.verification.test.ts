import assert from 'node:assert/strict';
import request from 'supertest';
import type { Express } from 'express';
import { ctx, buildApp, uniqueEmail } from '../support/context';
import { startSmtpSink, type SinkMessage, type SmtpSink } from '../support/smtp-sink';
import { createUserWithToken, tokenFor } from '../support/users';
import { makeUser, nextClientIp, PASSWORD } from '../support/auth';

const STRONG = 'Lantern-Orbit-Meadow-42';
const VERIFIED = '/auth/login?notice=email_verified';
const INVALID = '/auth/login?notice=email_link_invalid';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The verification link of a mail (its text part), as path + query. */
export function verifyLinkFrom(message: SinkMessage): string {
  const match = /https?:\/\/\S+(\/auth\/verify-email\?token=\S+)/.exec(message.text);
  assert.ok(match, 'the mail carries a verification link');
  return match[1];
}

describe('Email verification (CONTRACT 12)', () => {
  let sink: SmtpSink;
  let app: Express;
  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
  const mailsTo = (email: string) => sink.messages.filter((m) => m.envelope.to.includes(email));

  async function register(email: string, password = STRONG) {
    return request(app).post('/auth/register').set('X-Forwarded-For', nextClientIp()).send({ email, password });
  }

  async function setRequireVerified(value: boolean) {
    const { token } = await createUserWithToken('admin');
    const res = await request(app).put('/api/settings/security').set(bearer(token)).send({ requireVerifiedEmail: value });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.requireVerifiedEmail.value, value);
  }

  before(async () => {
    sink = await startSmtpSink();
    app = buildApp({ env: { SMTP_URL: sink.url, EMAIL_FROM: 'auth@example.test', TRUST_PROXY: 'true' } });
  });

  after(async () => {
    await ctx().models.Setting.destroy({ where: { key: 'security.requireVerifiedEmail' } });
    await sink.stop();
  });

  it('when a user registers by JSON, then a link is mailed, /auth/me says unverified, and the link verifies once', async () => {
    const email = uniqueEmail('reg');
    const res = await register(email);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const me = await request(app).get('/auth/me').set(bearer(res.body.token));
    assert.equal(me.body.user.emailVerified, false);

    const link = verifyLinkFrom(await sink.waitFor((m) => m.envelope.to.includes(email)));
    const stored = await ctx().models.EmailToken.findOne({ where: { userId: res.body.user.id } });
    assert.ok(stored && !link.includes(stored.tokenHash), 'only a hash is stored');
    const first = await request(app).get(link);
    assert.equal(first.status, 302);
    assert.equal(first.headers.location, VERIFIED);
    assert.equal((await request(app).get('/auth/me').set(bearer(res.body.token))).body.user.emailVerified, true);
    // Used once: the same link again is refused with the one message.
    assert.equal((await request(app).get(link)).headers.location, INVALID);
  });

  it('when the registration form is posted, then a link is mailed too; an admin-created user gets none', async () => {
    const email = uniqueEmail('form');
    const form = await request(app).post('/auth/register').set('X-Forwarded-For', nextClientIp()).type('form').set('Accept', 'text/html').send({ email, password: STRONG });
    assert.equal(form.status, 302);
    await sink.waitFor((m) => m.envelope.to.includes(email));

    const { token } = await createUserWithToken('admin');
    const created = uniqueEmail('admin-made');
    const res = await request(app).post('/api/users').set(bearer(token)).send({ email: created, password: STRONG });
    assert.equal(res.status, 201);
    assert.equal(res.body.user.emailVerified, false);
    await sleep(300);
    assert.equal(mailsTo(created).length, 0);
  });

  it('when a link is tampered, expired, missing or oversized, then each is refused with the same redirect', async () => {
    const email = uniqueEmail('bad');
    const res = await register(email);
    const link = verifyLinkFrom(await sink.waitFor((m) => m.envelope.to.includes(email)));
    const tampered = link.replace(/token=(.)/, (_all, c: string) => `token=${c === 'A' ? 'B' : 'A'}`);
    assert.equal((await request(app).get(tampered)).headers.location, INVALID);
    assert.equal((await request(app).get('/auth/verify-email')).headers.location, INVALID);
    assert.equal((await request(app).get(`/auth/verify-email?token=${'x'.repeat(500)}`)).headers.location, INVALID);
    await ctx().models.EmailToken.update({ expiresAt: new Date(Date.now() - 1000) }, { where: { userId: res.body.user.id } });
    assert.equal((await request(app).get(link)).headers.location, INVALID);
    assert.equal((await ctx().models.User.findByPk(res.body.user.id))?.emailVerifiedAt, null);
  });

  it('when parallel clicks use one link, then the account is verified once and one activity row says so', async () => {
    const email = uniqueEmail('race');
    const res = await register(email);
    const link = verifyLinkFrom(await sink.waitFor((m) => m.envelope.to.includes(email)));
    const answers = await Promise.all(Array.from({ length: 5 }, () => request(app).get(link)));
    assert.equal(answers.filter((a) => a.headers.location === VERIFIED).length, 1);
    const rows = await ctx().models.ActivityLog.count({ where: { action: 'user.email_verified', userId: res.body.user.id } });
    assert.equal(rows, 1);
  });

  it('when a signed-in unverified user asks to resend, then 200 and a new link; a verified one gets the same 200 and no mail', async () => {
    const unverified = await makeUser({ emailVerified: false });
    const res = await request(app).post('/auth/verify-email/resend').set(bearer(await tokenFor(unverified)));
    assert.equal(res.status, 200);
    assert.match(res.body.message, /new link/);
    await sink.waitFor((m) => m.envelope.to.includes(unverified.email));

    const verified = await makeUser();
    const again = await request(app).post('/auth/verify-email/resend').set(bearer(await tokenFor(verified)));
    assert.deepEqual(again.body, res.body);
    assert.equal((await request(app).post('/auth/verify-email/resend')).status, 401);
    await sleep(300);
    assert.equal(mailsTo(verified.email).length, 0);
  });

  describe('requireVerifiedEmail', () => {
    afterEach(() => setRequireVerified(false));

    it('when on, then the right password of an unverified account is 403 "Email not verified" with one link per 15 minutes; a wrong one stays 401', async () => {
      await setRequireVerified(true);
      const user = await makeUser({ emailVerified: false });
      const login = (password: string) => request(app).post('/auth/login').set('X-Forwarded-For', nextClientIp()).send({ email: user.email, password });
      const refused = await login(PASSWORD);
      assert.equal(refused.status, 403);
      assert.deepEqual(refused.body, { error: 'Email not verified' });
      assert.equal(refused.headers['set-cookie'], undefined);
      await sink.waitFor((m) => m.envelope.to.includes(user.email));
      assert.equal((await login(PASSWORD)).status, 403);
      assert.equal((await login('Not-The-Password-9')).status, 401);
      await sleep(300);
      assert.equal(mailsTo(user.email).length, 1, 'at most one link per 15 minutes');

      const verified = await makeUser();
      assert.equal((await request(app).post('/auth/login').set('X-Forwarded-For', nextClientIp()).send({ email: verified.email, password: PASSWORD })).status, 200);
    });

    it('when off (the default), then an unverified account signs in with its password', async () => {
      const user = await makeUser({ emailVerified: false });
      const res = await request(app).post('/auth/login').set('X-Forwarded-For', nextClientIp()).send({ email: user.email, password: PASSWORD });
      assert.equal(res.status, 200);
    });
  });

  describe('admin', () => {
    it('when an admin filters ?verified=false, then only unverified users are listed; PATCH emailVerified marks one verified', async () => {
      const { token } = await createUserWithToken('admin');
      const unverified = await makeUser({ emailVerified: false });
      const verified = await makeUser();
      const list = await request(app).get('/api/users').query({ verified: 'false', limit: 100, q: unverified.email }).set(bearer(token));
      assert.equal(list.status, 200);
      assert.deepEqual(list.body.users.map((u: { id: string }) => u.id), [unverified.id]);
      const none = await request(app).get('/api/users').query({ verified: 'false', q: verified.email }).set(bearer(token));
      assert.equal(none.body.total, 0);
      assert.equal((await request(app).get('/api/users').query({ verified: 'maybe' }).set(bearer(token))).body.errors.verified, 'must be true or false');

      const marked = await request(app).patch(`/api/users/${unverified.id}`).set(bearer(token)).send({ emailVerified: true });
      assert.equal(marked.status, 200);
      assert.equal(marked.body.user.emailVerified, true);
      assert.ok((await ctx().models.User.findByPk(unverified.id))?.emailVerifiedAt);
    });
  });
});
