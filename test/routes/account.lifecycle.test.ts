import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import request from 'supertest';
import type { Express } from 'express';
import { ctx, buildApp, uniqueEmail } from '../support/context';
import { startSmtpSink, type SinkMessage, type SmtpSink } from '../support/smtp-sink';
import { createUserWithToken, tokenFor } from '../support/users';
import { makeUser, nextClientIp, PASSWORD } from '../support/auth';
import { hashResetToken } from '../../src/services/sign-in-methods/password-reset.service';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const CHANGED = '/auth/login?notice=email_changed';
const INVALID = '/auth/login?notice=email_link_invalid';

function confirmLinkFrom(message: SinkMessage): string {
  const match = /https?:\/\/\S+(\/auth\/email\/confirm\?token=\S+)/.exec(message.text);
  assert.ok(match, 'the mail carries a confirmation link');
  return match[1];
}

describe('Account lifecycle: change of email, deletion, export (CONTRACT 12)', () => {
  let sink: SmtpSink;
  let app: Express;
  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
  const mailsTo = (email: string) => sink.messages.filter((m) => m.envelope.to.includes(email));
  /** A token of a sign-in made `secondsAgo` ago (step-up wants at most 10 minutes). */
  const signedInAgo = (user: { id: string }, secondsAgo: number) => tokenFor(user, { sid: crypto.randomUUID(), authTime: Math.floor(Date.now() / 1000) - secondsAgo });

  before(async () => {
    sink = await startSmtpSink();
    app = buildApp({ env: { SMTP_URL: sink.url, EMAIL_FROM: 'auth@example.test', TRUST_PROXY: 'true' } });
  });

  after(() => sink.stop());

  describe('POST /auth/email/change, GET /auth/email/confirm', () => {
    it('when the owner confirms, then the address moves (verified), the old one gets a notice and every other session ends', async () => {
      const user = await makeUser();
      const current = await tokenFor(user);
      const other = await tokenFor(user);
      const newEmail = uniqueEmail('moved');
      const res = await request(app).post('/auth/email/change').set(bearer(current)).send({ newEmail, currentPassword: PASSWORD });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.match(res.body.message, /confirmation link/);
      assert.equal((await ctx().models.User.findByPk(user.id))?.email, user.email, 'nothing changes before the link');

      const link = confirmLinkFrom(await sink.waitFor((m) => m.envelope.to.includes(newEmail)));
      const confirmed = await request(app).get(link);
      assert.equal(confirmed.headers.location, CHANGED);
      const stored = await ctx().models.User.findByPk(user.id);
      assert.equal(stored?.email, newEmail);
      assert.ok(stored?.emailVerifiedAt);
      const notice = await sink.waitFor((m) => m.envelope.to.includes(user.email));
      assert.match(notice.subject, /email address of your account was changed/);
      assert.equal((await request(app).get('/auth/me').set(bearer(current))).status, 200, 'the session that asked stays');
      assert.equal((await request(app).get('/auth/me').set(bearer(other))).status, 401, 'every other session ended');
      assert.equal((await request(app).get(link)).headers.location, INVALID, 'the link works once');
      const signIn = await request(app).post('/auth/login').set('X-Forwarded-For', nextClientIp()).send({ email: newEmail, password: PASSWORD });
      assert.equal(signIn.status, 200);
    });

    it('when the new address is taken, then the same 200 and no mail goes to it', async () => {
      const user = await makeUser();
      const owner = await makeUser();
      const token = await tokenFor(user);
      const free = await request(app).post('/auth/email/change').set(bearer(token)).send({ newEmail: uniqueEmail('free'), currentPassword: PASSWORD });
      const taken = await request(app).post('/auth/email/change').set(bearer(token)).send({ newEmail: owner.email.toUpperCase(), currentPassword: PASSWORD });
      assert.equal(taken.status, free.status);
      assert.deepEqual(taken.body, free.body);
      await sleep(300);
      assert.equal(mailsTo(owner.email).length, 0);
    });

    it('when the input is bad, then 400 names the field; a passwordless account needs no password', async () => {
      const user = await makeUser();
      const token = await tokenFor(user);
      const send = (body: Record<string, unknown>) => request(app).post('/auth/email/change').set('X-Forwarded-For', nextClientIp()).set(bearer(token)).send(body);
      assert.deepEqual((await send({ currentPassword: PASSWORD })).body.errors, { newEmail: 'is required' });
      assert.deepEqual((await send({ newEmail: 'not-an-address', currentPassword: PASSWORD })).body.errors, { newEmail: 'must be a valid email address' });
      assert.deepEqual((await send({ newEmail: uniqueEmail() })).body.errors, { currentPassword: 'is required' });
      assert.deepEqual((await send({ newEmail: uniqueEmail(), currentPassword: 'Wrong-Password-1' })).body.errors, { currentPassword: 'is not your current password' });
      assert.deepEqual((await send({ newEmail: user.email, currentPassword: PASSWORD })).body.errors, { newEmail: 'is already your address' });
      assert.equal((await send({ newEmail: uniqueEmail(), currentPassword: PASSWORD, extra: 1 })).status, 400);

      const passwordless = await makeUser({ password: null });
      const ok = await request(app).post('/auth/email/change').set(bearer(await tokenFor(passwordless))).send({ newEmail: uniqueEmail() });
      assert.equal(ok.status, 200);
    });

    it('when the sign-in is older than 10 minutes, then 403 with stepUp', async () => {
      const user = await makeUser();
      const res = await request(app).post('/auth/email/change').set(bearer(await signedInAgo(user, 11 * 60))).send({ newEmail: uniqueEmail(), currentPassword: PASSWORD });
      assert.equal(res.status, 403);
      assert.deepEqual(res.body, { error: 'Recent sign-in required', stepUp: true });
    });

    it('when a fourth change link to one address is asked within 15 minutes, then it sends no mail (the per-address quota), with the same answer', async () => {
      const user = await makeUser();
      const token = await tokenFor(user);
      const newEmail = uniqueEmail('quota');
      const ask = () => request(app).post('/auth/email/change').set('X-Forwarded-For', nextClientIp()).set(bearer(token)).send({ newEmail, currentPassword: PASSWORD });

      const answers = [];
      for (let i = 0; i < 4; i++) {
        answers.push(await ask());
        if (i < 3) await sink.waitFor(() => mailsTo(newEmail).length === i + 1);
      }
      await sleep(500);

      for (const answer of answers) assert.deepEqual([answer.status, answer.body], [answers[0].status, answers[0].body]);
      assert.equal(answers[0].status, 200);
      assert.equal(mailsTo(newEmail).length, 3);
    });

    it('when a second change is asked, even to a taken address, then the first link no longer confirms', async () => {
      const user = await makeUser();
      const other = await makeUser();
      const token = await tokenFor(user);
      const first = uniqueEmail('first-change');
      await request(app).post('/auth/email/change').set(bearer(token)).send({ newEmail: first, currentPassword: PASSWORD }).expect(200);
      const link = confirmLinkFrom(await sink.waitFor((m) => m.envelope.to.includes(first)));

      await request(app).post('/auth/email/change').set(bearer(token)).send({ newEmail: other.email, currentPassword: PASSWORD }).expect(200);
      await sleep(300);

      assert.equal((await request(app).get(link)).headers.location, INVALID);
      assert.equal((await ctx().models.User.findByPk(user.id))?.email, user.email);
    });

    it('when the address was taken between request and confirmation, then the link is refused with the one message', async () => {
      const user = await makeUser();
      const newEmail = uniqueEmail('race');
      await request(app).post('/auth/email/change').set(bearer(await tokenFor(user))).send({ newEmail, currentPassword: PASSWORD });
      const link = confirmLinkFrom(await sink.waitFor((m) => m.envelope.to.includes(newEmail)));
      await makeUser({ email: newEmail });
      assert.equal((await request(app).get(link)).headers.location, INVALID);
      assert.equal((await ctx().models.User.findByPk(user.id))?.email, user.email);
    });
  });

  describe('DELETE /auth/account', () => {
    it('when a user deletes their account, then 204, their rows go in one transaction and their content stays without author', async () => {
      const user = await makeUser();
      const token = await tokenFor(user);
      const { models } = ctx();
      await models.OAuthAccount.create({ id: crypto.randomUUID(), userId: user.id, provider: 'github', providerAccountId: `gh-${user.id}`, email: user.email });
      const content = await models.Content.create({ id: crypto.randomUUID(), title: 'Kept', body: null, collectionId: null, authorId: user.id });
      await models.OtpCode.create({ id: crypto.randomUUID(), userEmail: user.email, code: 'x', expiresAt: Math.floor(Date.now() / 1000) + 60 });

      const res = await request(app).delete('/auth/account').set(bearer(token));
      assert.equal(res.status, 204);
      assert.equal(await models.User.findByPk(user.id), null);
      assert.equal(await models.OAuthAccount.count({ where: { userId: user.id } }), 0);
      assert.equal(await models.Session.count({ where: { userId: user.id } }), 0);
      assert.equal(await models.UserProfile.count({ where: { userId: user.id } }), 0);
      assert.equal(await models.OtpCode.count({ where: { userEmail: user.email } }), 0);
      assert.equal((await models.Content.findByPk(content.id))?.authorId, null);
      assert.equal((await request(app).get('/auth/me').set(bearer(token))).status, 401);
      assert.equal(await models.ActivityLog.count({ where: { action: 'user.account_deleted', userId: user.id } }), 1);
    });

    it('when the last active admin deletes their account, then 409 and nothing changes; a stale sign-in is 403 stepUp', async () => {
      const { models } = ctx();
      const others = (await models.User.findAll({ attributes: ['id'], where: { role: 'admin', active: true } })).map((admin) => admin.id);
      await models.User.update({ active: false }, { where: { id: others } });
      try {
        const { user, token } = await createUserWithToken('admin');
        const res = await request(app).delete('/auth/account').set(bearer(token));
        assert.equal(res.status, 409);
        assert.match(res.body.error, /last active admin/);
        assert.ok(await models.User.findByPk(user.id));
        assert.equal((await request(app).delete('/auth/account').set(bearer(await signedInAgo(user, 20 * 60)))).status, 403);
      } finally {
        await models.User.update({ active: true }, { where: { id: others } });
      }
    });
  });

  describe('GET /auth/account/export', () => {
    it('when a user exports, then their profile, links, sessions and activity come as an attachment without hashes or secrets', async () => {
      const user = await makeUser();
      const token = await tokenFor(user);
      await ctx().models.OAuthAccount.create({ id: crypto.randomUUID(), userId: user.id, provider: 'github', providerAccountId: `gh-${user.id}`, email: user.email });
      await request(app).post('/auth/email/change').set(bearer(token)).send({ newEmail: uniqueEmail(), currentPassword: 'Wrong-Password-1' });
      const res = await request(app).get('/auth/account/export').set(bearer(token));
      assert.equal(res.status, 200);
      assert.match(String(res.headers['content-disposition']), /attachment/);
      assert.equal(res.body.account.email, user.email);
      assert.equal(res.body.account.hasPassword, true);
      assert.equal(res.body.linkedAccounts.length, 1);
      assert.ok(res.body.sessions.length >= 1);
      assert.ok(Array.isArray(res.body.passkeys));
      assert.equal(res.body.activityTruncated, false);
      const text = JSON.stringify(res.body);
      assert.ok(!text.includes(user.passwordHash as string), 'no password hash');
      assert.doesNotMatch(text, /passwordHash|tokenHash|token_epoch|tokenEpoch|secret/i);
      assert.equal((await request(app).get('/auth/account/export')).status, 401);
    });
  });

  describe('password quality on every path that sets one', () => {
    it('when a common or easily guessed password is set by registration, reset, admin create or seed, then 400 names the field and why', async () => {
      const { token } = await createUserWithToken('admin');
      const register = await request(app).post('/auth/register').set('X-Forwarded-For', nextClientIp()).send({ email: uniqueEmail(), password: 'password123' });
      assert.equal(register.status, 400);
      assert.equal(register.body.errors.password, 'is one of the most commonly used passwords');
      const weak = await request(app).post('/auth/register').set('X-Forwarded-For', nextClientIp()).send({ email: uniqueEmail(), password: 'aaaaaaaaaaaa' });
      assert.match(weak.body.errors.password, /^is too easy to guess/);
      const created = await request(app).post('/api/users').set(bearer(token)).send({ email: uniqueEmail(), password: 'qwertyuiop' });
      assert.equal(created.status, 400);
      assert.ok(created.body.errors.password);
      // A reset judges the password with the account its token names (issue 44), so the token must be real.
      const resetToken = crypto.randomBytes(32).toString('base64url');
      await ctx().models.PasswordResetToken.create({ id: crypto.randomUUID(), userId: (await makeUser()).id, tokenHash: hashResetToken(resetToken), expiresAt: new Date(Date.now() + 3600_000) });
      const reset = await request(app).post('/auth/reset-password').send({ token: resetToken, password: 'iloveyou1' });
      assert.equal(reset.status, 400);
      assert.ok(reset.body.errors.password);
      const seed = await request(app).post('/auth/seed-admin').set('X-Forwarded-For', nextClientIp()).send({ email: uniqueEmail(), password: 'letmein123' });
      assert.equal(seed.status, 400);
      assert.ok(seed.body.errors.password);
      // The length rule comes first: an over-long input never reaches zxcvbn.
      const long = await request(app).post('/auth/register').set('X-Forwarded-For', nextClientIp()).send({ email: uniqueEmail(), password: 'x'.repeat(129) });
      assert.deepEqual(long.body.errors, { password: 'must be at most 128 characters' });
    });

    it('when an old weak password signs in, then it still works: the rule is never on the sign-in path', async () => {
      const user = await makeUser({ password: 'password1' });
      assert.equal((await request(app).post('/auth/login').set('X-Forwarded-For', nextClientIp()).send({ email: user.email, password: 'password1' })).status, 200);
    });
  });
});
