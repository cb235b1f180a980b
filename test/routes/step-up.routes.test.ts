import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import request from 'supertest';
import type { Express } from 'express';
import { buildApp, ctx } from '../support/context';
import { makeUser, payloadOf, setCookies, tokenFor, PASSWORD } from '../support/auth';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import { awayFromStepEnd, codeFor, enrolTotp } from '../support/totp';
import { loadConfig } from '../../src/config/config';
import type { User } from '../../src/models';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** CONTRACT 9 step-up: STEP_UP_MAX_AGE, POST /auth/step-up, the page prompt, and the notices of sensitive changes. */
describe('step-up (POST /auth/step-up) and security notices', () => {
  let sink: SmtpSink;
  let app: Express;

  before(async () => {
    sink = await startSmtpSink();
    // Two seconds, so a test can watch a step-up expire.
    app = buildApp({ env: { SMTP_URL: sink.url, EMAIL_FROM: 'auth@example.test', STEP_UP_MAX_AGE: '2s' } });
  });
  after(() => sink.stop());

  const now = () => Math.floor(Date.now() / 1000);
  /** A token of a sign-in made a minute ago, with its session row. */
  const oldToken = (user: User) => tokenFor(user, { sid: crypto.randomUUID(), authTime: now() - 60 });

  it('when STEP_UP_MAX_AGE is malformed or out of range, then the configuration is refused; unset it is ten minutes', () => {
    const env = { NODE_ENV: 'test', JWT_SECRET: 'x'.repeat(40), DATA_DIR: ctx().config.dataDir };
    assert.throws(() => loadConfig({ ...env, STEP_UP_MAX_AGE: 'soon' }), /STEP_UP_MAX_AGE/);
    assert.throws(() => loadConfig({ ...env, STEP_UP_MAX_AGE: '2d' }), /STEP_UP_MAX_AGE/);
    assert.equal(loadConfig(env).stepUpMaxAgeSeconds, 600);
    assert.equal(loadConfig({ ...env, STEP_UP_MAX_AGE: '15m' }).stepUpMaxAgeSeconds, 900);
  });

  it('when the sign-in is older than STEP_UP_MAX_AGE, then a step-up route answers 403 stepUp; the password renews auth_time in the same session; the renewal itself expires', async () => {
    const user = await makeUser();
    const token = await oldToken(user);
    const auth = { Authorization: `Bearer ${token}` };
    const refused = await request(app).post('/auth/2fa/totp/setup').set(auth);
    assert.equal(refused.status, 403);
    assert.deepEqual(refused.body, { error: 'Recent sign-in required', stepUp: true });

    const wrong = await request(app).post('/auth/step-up').set(auth).send({ password: 'not it' });
    assert.equal(wrong.status, 400);
    assert.equal(wrong.body.errors.password, 'is not your password');
    const proved = await request(app).post('/auth/step-up').set(auth).send({ password: PASSWORD });
    assert.equal(proved.status, 200);
    assert.deepEqual(Object.keys(proved.body), ['token']);
    assert.equal(payloadOf(proved.body.token).sid, payloadOf(token).sid, 'the same session');
    assert.ok((payloadOf(proved.body.token).auth_time as number) >= now() - 1);
    assert.equal((await request(app).post('/auth/2fa/totp/setup').set('Authorization', `Bearer ${proved.body.token}`)).status, 200);
    const row = await ctx().models.ActivityLog.findOne({ where: { action: 'auth.step_up', userId: user.id } });
    assert.equal((row?.details as Record<string, unknown>).method, 'password');

    await sleep(3100);
    assert.equal((await request(app).post('/auth/2fa/totp/setup').set('Authorization', `Bearer ${proved.body.token}`)).status, 403);
  });

  it('when a user with TOTP steps up with a code, then it works once: the same code is refused again (replay)', async () => {
    const user = await makeUser();
    const { secret } = await enrolTotp(app, await tokenFor(user));
    await awayFromStepEnd();
    const auth = { Authorization: `Bearer ${await oldToken(user)}` };
    const code = codeFor(secret, 1);
    assert.equal((await request(app).post('/auth/step-up').set(auth).send({ code })).status, 200);
    const replay = await request(app).post('/auth/step-up').set(auth).send({ code });
    assert.equal(replay.status, 400);
    assert.ok(replay.body.errors.code);
  });

  it('when the request came with cookies, then the step-up renews them; an ended session cannot be stepped up', async () => {
    const user = await makeUser();
    const token = await oldToken(user);
    const login = await request(app).post('/auth/login').send({ email: user.email, password: PASSWORD });
    const csrf = setCookies(login).csrf_token.value;
    const res = await request(app).post('/auth/step-up').set('Cookie', `auth_token=${token}; csrf_token=${csrf}`).set('X-CSRF-Token', csrf).send({ password: PASSWORD });
    assert.equal(res.status, 200);
    assert.ok(setCookies(res).auth_token.value);
    assert.equal(setCookies(res).auth_token.value, res.body.token);

    await ctx().models.Session.update({ revokedAt: new Date() }, { where: { id: payloadOf(token).sid as string } });
    const ended = await request(app).post('/auth/step-up').set('Authorization', `Bearer ${token}`).send({ password: PASSWORD });
    assert.equal(ended.status, 401);
  });

  it('when a form post reaches the step-up prompt with no valid credential and a hostile body, then it is sent to sign in, never a 500 (found by the fuzzer)', async () => {
    const res = await request(ctx().app)
      .post('/auth/step-up')
      .set('Authorization', 'Bearer not-a-token')
      .type('form')
      .send('toString[constructor][admin]=true');
    assert.ok(res.status < 500, `${res.status}`);
    assert.equal(res.status, 302);
    assert.equal(res.headers.location, '/auth/login?notice=sign_in_required');
  });

  it('when a page posts a step-up action with an old sign-in, then it goes to the prompt, and after the password back to the page it came from', async () => {
    const user = await makeUser();
    const auth = { Authorization: `Bearer ${await oldToken(user)}` };
    const change = await request(app).post('/admin/profile/password').set(auth).set('Accept', 'text/html').type('form').send({ currentPassword: PASSWORD, newPassword: 'a whole new passphrase' });
    assert.equal(change.status, 303);
    assert.equal(change.headers.location, '/auth/step-up?redirect=%2Fadmin%2Fprofile%2Fsecurity');

    const prompt = await request(app).get(change.headers.location).set(auth).set('Accept', 'text/html');
    assert.equal(prompt.status, 200);
    assert.match(prompt.text, /name="password"/);
    assert.match(prompt.text, /name="redirect" value="\/admin\/profile\/security"/);
    const wrong = await request(app).post('/auth/step-up').set(auth).set('Accept', 'text/html').type('form').send({ password: 'nope', redirect: '/admin/profile/security' });
    assert.equal(wrong.status, 400);
    assert.match(wrong.text, /is not your password/);
    const done = await request(app).post('/auth/step-up').set(auth).set('Accept', 'text/html').type('form').send({ password: PASSWORD, redirect: 'https://evil.example/' });
    assert.equal(done.status, 303);
    assert.equal(done.headers.location, '/admin/profile?notice=step_up_done', 'an outside redirect falls back to the profile');
  });

  it('when the password changes and two-factor is turned on and off, then the owner is mailed each time, never the secret', async () => {
    const user = await makeUser();
    const token = await tokenFor(user);
    const changed = await request(app).post('/admin/profile/password').set('Authorization', `Bearer ${token}`).set('Accept', 'text/html').type('form').send({ currentPassword: PASSWORD, newPassword: 'another long passphrase 7' });
    assert.equal(changed.status, 303);
    const notice = await sink.waitFor((m) => m.envelope.to.includes(user.email) && m.subject === 'Your password was changed');
    assert.match(notice.text, /\/admin\/profile\/security\b/, 'the notice links to the account center section where password, second factor and linked accounts are');

    const fresh = await tokenFor(user);
    const { secret } = await enrolTotp(app, fresh);
    const on = await sink.waitFor((m) => m.envelope.to.includes(user.email) && m.subject === 'Two-factor authentication turned on');
    assert.ok(!on.text.includes(secret));
    assert.equal((await request(app).post('/auth/2fa/disable').set('Authorization', `Bearer ${fresh}`)).status, 200);
    await sink.waitFor((m) => m.envelope.to.includes(user.email) && m.subject === 'Two-factor authentication turned off');
  });
});
