import assert from 'node:assert/strict';
import request, { type Response } from 'supertest';
import type { Express } from 'express';
import { buildApp, ctx } from '../support/context';
import { makeUser, payloadOf, setCookies, tokenFor, PASSWORD } from '../support/auth';
import { createUserWithToken } from '../support/users';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import { configureOtp, mailedOtpCode } from '../support/otp';
import { EXTERNAL_AUTH_SECRET, follow, mailedLink } from '../support/magic-link';
import { OAuthProviderStandIn, enableBoth, signInWith } from '../support/oauth-provider';
import { awayFromStepEnd, codeFor, enrolTotp } from '../support/totp';
import type { User } from '../../src/models';

/** CONTRACT 9: every first factor (password, email code, magic link, OAuth) ends in the same second step. */
describe('the second step after every first factor', () => {
  let sink: SmtpSink;
  let stand: OAuthProviderStandIn;
  let app: Express;

  before(async () => {
    sink = await startSmtpSink();
    stand = await new OAuthProviderStandIn().start();
    app = buildApp({ env: { SMTP_URL: sink.url, EMAIL_FROM: 'auth@example.test', EXTERNAL_AUTH_SECRET } });
  });
  after(async () => {
    await sink.stop();
    await stand.stop();
  });

  async function enrolledUser(): Promise<{ user: User; secret: string }> {
    const user = await makeUser();
    const { secret } = await enrolTotp(app, await tokenFor(user));
    // The "turned on" notice is mailed in the background: let it arrive before the mails these tests read.
    const notice = await sink.waitFor((m) => m.envelope.to.includes(user.email) && m.subject === 'Two-factor authentication turned on');
    assert.match(notice.text, /turned on/);
    await awayFromStepEnd();
    return { user, secret };
  }

  /** A page's second step: the challenge cookie the first factor set, the /auth/2fa page, the form post. */
  async function finishOnPage(first: Response, secret: string): Promise<Response> {
    assert.equal(first.status, 302);
    assert.equal(first.headers.location, '/auth/2fa');
    const cookies = setCookies(first);
    assert.deepEqual(Object.keys(cookies).filter((name) => ['auth_token', 'csrf_token', 'auth_session'].includes(name)), [], 'no session cookie before the second step');
    const challenge = cookies['2fa_challenge'];
    assert.ok(challenge, 'the challenge travels in a cookie');
    assert.equal(challenge.attributes.httponly, true);
    assert.equal(String(challenge.attributes.samesite).toLowerCase(), 'lax');
    assert.equal(challenge.attributes.path, '/auth/2fa');
    const cookie = `2fa_challenge=${encodeURIComponent(challenge.value)}`;

    const page = await request(app).get('/auth/2fa').set('Cookie', cookie).set('Accept', 'text/html');
    assert.equal(page.status, 200);
    assert.match(page.text, /name="code"/);
    assert.match(page.text, /Use a recovery code/);
    assert.ok(!page.text.includes(challenge.value), 'the page never shows the challenge');

    const wrong = await request(app).post('/auth/2fa/verify').set('Cookie', cookie).set('Accept', 'text/html').type('form').send({ code: codeFor(secret, 4) });
    assert.equal(wrong.status, 401);
    assert.match(wrong.text, /Invalid code/);
    return request(app).post('/auth/2fa/verify').set('Cookie', cookie).set('Accept', 'text/html').type('form').send({ code: codeFor(secret, 1) });
  }

  async function sessionMethod(res: Response): Promise<string | undefined> {
    const token = setCookies(res).auth_token?.value;
    assert.ok(token, 'the second step set the auth cookie');
    return (await ctx().models.Session.findByPk(payloadOf(token).sid as string))?.method;
  }

  it('when a password form is posted, then the page goes to /auth/2fa and, after the code, to the redirect it asked for', async () => {
    const { user, secret } = await enrolledUser();
    const first = await request(app).post('/auth/login').set('Accept', 'text/html').type('form').send({ email: user.email, password: PASSWORD, redirect: '/admin/profile' });
    const done = await finishOnPage(first, secret);
    assert.equal(done.status, 302);
    assert.equal(done.headers.location, '/admin/profile');
    assert.equal(await sessionMethod(done), 'password+totp');
    assert.equal(setCookies(done)['2fa_challenge']?.value, '', 'the challenge cookie is cleared');
  });

  it('when an emailed code signs in (JSON), then the answer is the challenge, and the code of the app ends it with method otp+totp', async () => {
    const { token } = await createUserWithToken('admin');
    await configureOtp(app, { Authorization: `Bearer ${token}` });
    const { user, secret } = await enrolledUser();
    const code = await mailedOtpCode(app, sink, user.email);
    const first = await request(app).post('/auth/otp/verify').send({ email: user.email, code });
    assert.equal(first.status, 200);
    assert.equal(first.body.twoFactorRequired, true);
    assert.equal(first.body.token, undefined);
    // The emailed code was spent by the first step: it cannot begin another.
    assert.equal((await request(app).post('/auth/otp/verify').send({ email: user.email, code })).status, 401);

    const second = await request(app).post('/auth/2fa/verify').send({ challenge: first.body.challenge, code: codeFor(secret, 1) });
    assert.equal(second.status, 200);
    assert.equal((await ctx().models.Session.findByPk(payloadOf(second.body.token).sid as string))?.method, 'otp+totp');
  });

  it('when a magic link is followed, then the browser goes to /auth/2fa and the second step sets the cookies and the server session, then the link\'s callbackURL', async () => {
    const { user, secret } = await enrolledUser();
    const link = await mailedLink(app, sink, user.email, { callbackURL: '/admin/profile' });
    const first = await follow(app, link);
    const done = await finishOnPage(first, secret);
    assert.equal(done.status, 302);
    assert.equal(done.headers.location, '/admin/profile');
    assert.ok(setCookies(done).auth_session, 'the magic link\'s server session is made after the second step');
    assert.equal(await sessionMethod(done), 'magic_link+totp');
    // The link was spent by the first step.
    assert.equal((await follow(app, link)).headers.location?.includes('/auth/2fa'), false);
  });

  it('when an OAuth provider signs in a user with TOTP, then the callback goes to /auth/2fa (no session), and the code ends it with method github+totp', async () => {
    await enableBoth(stand);
    const { user, secret } = await enrolledUser();
    stand.as('github', { id: 9_100_000 + Math.floor(Math.random() * 100_000), login: 'octo2fa', emails: [{ email: user.email, primary: true, verified: true }] });
    const { callback } = await signInWith(app, 'github', { query: '?redirect=/admin/profile' });
    const done = await finishOnPage(callback, secret);
    assert.equal(done.status, 302);
    assert.equal(done.headers.location, '/admin/profile');
    assert.equal(await sessionMethod(done), 'github+totp');
  });

  it('when /auth/2fa is opened without a live challenge, then it leads back to sign-in', async () => {
    const res = await request(app).get('/auth/2fa').set('Cookie', '2fa_challenge=nothing').set('Accept', 'text/html');
    assert.equal(res.status, 303);
    assert.equal(res.headers.location, '/auth/login?notice=two_factor_expired');
  });
});
