import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import request from 'supertest';
import express, { type Express } from 'express';
import { buildApp, ctx, uniqueEmail } from '../support/context';
import { cookieHeader, makeUser, payloadOf, setCookies, tokenFor, PASSWORD } from '../support/auth';
import { OAuthProviderStandIn, authorizeAt, bindingCookie, enableBoth, pathOf } from '../support/oauth-provider';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import { STEP_UP_MAX_AGE_SECONDS, requireRecentSignIn } from '../../src/middleware/step-up';
import { errorHandler } from '../../src/http/error-handler';
import { PERMISSIONS } from '../../src/access/permissions';

/** Issue 26, finding 2: a stolen token alone cannot link the thief's provider account, and the owner hears of every link. */
describe('step-up before linking a provider (requireRecentSignIn)', () => {
  let stand: OAuthProviderStandIn;
  let sink: SmtpSink;
  let app: Express;
  let nextId = 70_000;

  before(async () => {
    stand = await new OAuthProviderStandIn().start();
    sink = await startSmtpSink();
    app = buildApp({ env: { SMTP_URL: sink.url, EMAIL_FROM: 'auth@example.test' } });
  });
  after(async () => {
    await stand.stop();
    await sink.stop();
  });
  beforeEach(() => enableBoth(stand));

  const now = () => Math.floor(Date.now() / 1000);
  /** A token of a sign-in made `ageSeconds` ago (as a token refreshed ever since carries it). */
  const tokenSignedInAgo = (user: { id: string }, ageSeconds: number) => tokenFor(user, { sid: crypto.randomUUID(), authTime: now() - ageSeconds });

  function attacker(email = uniqueEmail('thief')) {
    nextId += 1;
    return { id: nextId, login: `thief${nextId}`, emails: [{ email, primary: true, verified: true }] };
  }

  it('when the sign-in is older than ten minutes, then linking answers 403 "Recent sign-in required" with stepUp: true and nothing is linked', async () => {
    const victim = await makeUser();
    const stolen = await tokenSignedInAgo(victim, STEP_UP_MAX_AGE_SECONDS + 60);

    const res = await request(app).post('/auth/oauth/link').set('Authorization', `Bearer ${stolen}`).send({ provider: 'github' });

    assert.equal(res.status, 403);
    assert.deepEqual(res.body, { error: 'Recent sign-in required', stepUp: true });
    assert.equal(await ctx().models.OAuthAccount.count({ where: { userId: victim.id } }), 0);
  });

  it('when a stolen token is refreshed, then it keeps the sign-in time: refreshing never makes it recent', async () => {
    const victim = await makeUser();
    const stolen = await tokenSignedInAgo(victim, STEP_UP_MAX_AGE_SECONDS + 60);

    const refreshed = await request(app).post('/auth/refresh').set('Authorization', `Bearer ${stolen}`);
    assert.equal(refreshed.status, 200);
    assert.equal(payloadOf(refreshed.body.token).auth_time, payloadOf(stolen).auth_time);
    assert.equal(payloadOf(refreshed.body.token).sid, payloadOf(stolen).sid);

    const res = await request(app).post('/auth/oauth/link').set('Authorization', `Bearer ${refreshed.body.token}`).send({ provider: 'github' });
    assert.equal(res.status, 403);
  });

  it('when the profile page posts the link form with an old sign-in, then the browser is sent to the step-up prompt, which comes back to Security', async () => {
    const user = await makeUser();
    const session = await request(app).post('/auth/login').send({ email: user.email, password: PASSWORD });
    const csrf = setCookies(session).csrf_token.value;
    // The same browser's cookies, but its token from a sign-in eleven minutes ago (the CSRF token is bound to the user).
    const oldCookie = `auth_token=${await tokenSignedInAgo(user, STEP_UP_MAX_AGE_SECONDS + 60)}; csrf_token=${csrf}`;
    const stale = await request(app).post('/auth/oauth/link').set('Cookie', oldCookie).type('form').send({ provider: 'github', _csrf: csrf });
    assert.equal(stale.status, 303);
    assert.equal(stale.headers.location, '/auth/step-up?redirect=%2Fadmin%2Fprofile%2Fsecurity');

    const fresh = await request(app)
      .post('/auth/oauth/link')
      .set('Cookie', cookieHeader(session))
      .type('form')
      .send({ provider: 'github', _csrf: csrf });
    assert.equal(fresh.status, 302);
    assert.ok(fresh.headers.location.startsWith(`${stand.url}/github/authorize?`));
  });

  it('when a recent sign-in links an account, then the owner is mailed a notice naming the provider account and every linked account', async () => {
    const user = await makeUser();
    const person = attacker(uniqueEmail('linked-gh'));
    stand.as('github', person);

    const link = await request(app).post('/auth/oauth/link').set('Authorization', `Bearer ${await tokenFor(user)}`).send({ provider: 'github' });
    assert.equal(link.status, 200);
    const callback = await request(app).get(pathOf(await authorizeAt(link.body.redirectUrl))).set('Cookie', bindingCookie(link));
    assert.equal(callback.status, 200);
    assert.equal(await ctx().models.OAuthAccount.count({ where: { userId: user.id } }), 1);

    const mail = await sink.waitFor((message) => message.to.includes(user.email) && /linked/.test(message.subject));
    assert.equal(mail.subject, 'GitHub account linked to your account');
    assert.ok(mail.text.includes(person.emails[0].email), mail.text);
    assert.ok(mail.text.includes(String(person.id)));
    assert.match(mail.text, /Accounts linked to yours now:\r?\n- GitHub: /);
    assert.match(mail.text, /Unlink/);
    assert.ok(mail.html.includes('GitHub account linked to your account'));
  });

  it('when a verified provider address joins an existing account at sign-in (rule 2), then its owner is mailed the notice too', async () => {
    const user = await makeUser();
    stand.as('github', attacker(user.email));

    const start = await request(app).get('/auth/oauth/github');
    const callback = await request(app).get(pathOf(await authorizeAt(start.headers.location))).set('Cookie', bindingCookie(start));
    assert.equal(callback.headers.location, '/admin');

    const mail = await sink.waitFor((message) => message.to.includes(user.email) && /linked/.test(message.subject));
    assert.match(mail.text, /A GitHub account was linked to your account/);
  });
});

/** Issue 44, finding 2: a request an API key signed in never passes a step-up route, whatever else it carries. */
describe('requireRecentSignIn and API keys', () => {
  /** A route behind step-up, reached by a request that a key signed in and that also carries a fresh sign-in time. */
  function keyedApp(): Express {
    const app = express();
    app.use((req, _res, next) => {
      req.apiKey = { id: 'k1', permissions: new Set(PERMISSIONS) };
      req.tokenClaims = { auth_time: Math.floor(Date.now() / 1000) } as typeof req.tokenClaims;
      next();
    });
    app.post('/step', requireRecentSignIn({ returnTo: '/admin/profile' }), (_req, res) => void res.json({ ok: true }));
    app.use(errorHandler);
    return app;
  }

  it('when a key signed the request in, then 403 "Not allowed with an API key", even with a fresh auth_time; a page is refused too', async () => {
    const app = keyedApp();
    const json = await request(app).post('/step');
    assert.equal(json.status, 403);
    assert.deepEqual(json.body, { error: 'Not allowed with an API key' });
    const page = await request(app).post('/step').set('Accept', 'text/html');
    assert.equal(page.status, 403, 'no step-up prompt: a key cannot step up');
  });
});
