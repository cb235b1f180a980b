import assert from 'node:assert/strict';
import request, { type Response } from 'supertest';
import type { Express } from 'express';
import { ctx, buildApp, uniqueEmail } from '../support/context';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import { createTestUser, createUserWithToken, tokenFor } from '../support/users';
import { setCookies, proxiedApp, nextClientIp, makeUser, PASSWORD } from '../support/auth';
import { createApp } from '../../src/app';
import { loadConfig } from '../../src/config/config';
import { EXTERNAL_AUTH_SECRET, follow, linkFrom, magicLinkApp, mailedLink, signInByLink } from '../support/magic-link';

const NOT_CONFIGURED = { error: 'Magic link sign-in is not configured' };
const LOGIN_WITH_ERROR = '/auth/login?notice=magic_link_invalid';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The Cookie header carrying only the server session of a sign-in answer. */
function sessionOnly(res: Response): string {
  const session = setCookies(res).auth_session;
  assert.ok(session, 'the answer sets auth_session');
  return `auth_session=${encodeURIComponent(session.value)}`;
}

/** The session cookie plus the CSRF cookie, and the header an unsafe request must echo. */
function sessionWithCsrf(res: Response): { Cookie: string; 'X-CSRF-Token': string } {
  const csrf = setCookies(res).csrf_token.value;
  return { Cookie: `${sessionOnly(res)}; csrf_token=${encodeURIComponent(csrf)}`, 'X-CSRF-Token': csrf };
}

describe('Magic-link sign-in (POST /auth/sign-in/magic-link, GET /auth/magic-link/verify)', () => {
  let sink: SmtpSink;
  let app: Express;

  const ask = (email: string, target = app, body: Record<string, unknown> = {}) =>
    request(target).post('/auth/sign-in/magic-link').send({ email, ...body });

  /** Waits a moment for mail that should not come, then counts the mails to the address. */
  async function mailCountAfterAWhile(email: string): Promise<number> {
    await sleep(300);
    return sink.messages.filter((m) => m.envelope.to.includes(email)).length;
  }

  before(async () => {
    sink = await startSmtpSink();
    app = magicLinkApp(sink);
  });

  after(async () => {
    await ctx().models.Setting.destroy({ where: { key: 'security.allowRegistration' } });
    await sink.stop();
  });

  describe('requesting a link', () => {
    it('when EXTERNAL_AUTH_SECRET is missing, then 503 "Magic link sign-in is not configured" and the sign-in page offers no link form', async () => {
      const bare = buildApp({ env: { SMTP_URL: sink.url } });
      const res = await ask(uniqueEmail(), bare);
      assert.equal(res.status, 503);
      assert.deepEqual(res.body, NOT_CONFIGURED);
      const page = await request(bare).get('/auth/login').set('Accept', 'text/html');
      assert.doesNotMatch(page.text, /Email me a sign-in link/);
    });

    it('when no mail service is configured, then 503 "Magic link sign-in is not configured"', async () => {
      const noMail = buildApp({ env: { EXTERNAL_AUTH_SECRET } });
      const res = await ask(uniqueEmail(), noMail);
      assert.equal(res.status, 503);
      assert.deepEqual(res.body, NOT_CONFIGURED);
    });

    it('when the email is invalid, then 400 naming the field', async () => {
      const res = await ask('not-an-email');
      assert.equal(res.status, 400);
      assert.equal(res.body.error, 'Validation failed');
      assert.ok(res.body.errors.email);
    });

    it('when known, unknown and deactivated emails ask, then status, body and headers are the same; only the active account and the unknown one (registration open) get mail', async () => {
      const active = await createTestUser('viewer');
      const inactive = await createTestUser('viewer', { active: false });
      const unknown = uniqueEmail('nobody');
      const answers = [];
      for (const email of [active.email, unknown, inactive.email]) answers.push(await ask(email));
      const comparable = (res: Response) => {
        const headers = { ...res.headers };
        // The remaining count is this client's own per-IP budget, spent one per request whatever the address.
        for (const name of ['date', 'x-request-id', 'x-ratelimit-reset', 'x-ratelimit-remaining']) delete headers[name];
        return { status: res.status, body: res.body as unknown, headers };
      };
      assert.equal(answers[0].status, 200);
      assert.deepEqual(answers[0].body, { status: true });
      assert.deepEqual(comparable(answers[1]), comparable(answers[0]));
      assert.deepEqual(comparable(answers[2]), comparable(answers[0]));
      await sink.waitFor((m) => m.envelope.to.includes(active.email));
      await sink.waitFor((m) => m.envelope.to.includes(unknown));
      assert.equal(await mailCountAfterAWhile(inactive.email), 0);
    });

    it('when registration is closed, then an unknown email gets the same answer and no mail', async () => {
      await ctx().models.Setting.upsert({ key: 'security.allowRegistration', value: false });
      try {
        const email = uniqueEmail('closed');
        const res = await ask(email);
        assert.equal(res.status, 200);
        assert.deepEqual(res.body, { status: true });
        assert.equal(await mailCountAfterAWhile(email), 0);
      } finally {
        await ctx().models.Setting.destroy({ where: { key: 'security.allowRegistration' } });
      }
    });

    it('when a link is mailed, then it has an HTML and a text part, is built from BASE_URL (not Host or X-Forwarded-Host) and states its expiry', async () => {
      const user = await createTestUser('viewer');
      const before = sink.messages.length;
      const res = await ask(user.email).set('Host', 'evil.test').set('X-Forwarded-Host', 'evil.test');
      assert.equal(res.status, 200);
      const mail = await sink.waitFor((m) => m.envelope.to.includes(user.email) && sink.messages.indexOf(m) >= before);
      assert.equal(mail.subject, 'Your sign-in link');
      const link = linkFrom(mail);
      assert.equal(link.origin, 'http://localhost:3000');
      assert.match(link.searchParams.get('token') ?? '', /^[A-Za-z0-9_-]{43}$/);
      assert.match(mail.text, /expires in 15 minutes/);
      assert.match(mail.html, /expires in 15 minutes/);
      assert.ok(mail.html.includes(`href="${link.href.replace(/&/g, '&amp;')}"`), 'the HTML part links to the same address');
      assert.doesNotMatch(mail.html + mail.text, /evil\.test/);
      // Only a hash is stored, never the token.
      const rows = await ctx().models.AuthVerification.findAll({ where: { identifier: user.email } });
      assert.equal(rows.length, 1);
      assert.notEqual(rows[0].value, link.searchParams.get('token'));
      assert.match(rows[0].value, /^[0-9a-f]{64}$/);
    });

    it('when one email asks a 4th time within 15 minutes (from different IPs), then the same 200 and no 4th mail (a 429 would tell a stranger someone asked lately); a 6th request from one IP within a minute is 429', async () => {
      const proxied = proxiedApp({ EXTERNAL_AUTH_SECRET, SMTP_URL: sink.url });
      const user = await makeUser();
      const perEmail = [];
      for (let i = 0; i < 4; i++) perEmail.push(await ask(user.email, proxied).set('X-Forwarded-For', nextClientIp()));
      assert.deepEqual(perEmail.map((r) => [r.status, r.body]), Array(4).fill([200, { status: true }]));
      assert.equal(perEmail[3].headers['retry-after'], undefined);
      await sink.waitFor((m) => m.envelope.to.includes(user.email) && sink.messages.filter((n) => n.envelope.to.includes(user.email)).length >= 3);
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(sink.messages.filter((m) => m.envelope.to.includes(user.email)).length, 3);

      const ip = nextClientIp();
      const perIp = [];
      for (let i = 0; i < 6; i++) perIp.push(await ask(uniqueEmail('ip'), proxied).set('X-Forwarded-For', ip));
      assert.deepEqual(perIp.map((r) => r.status), [200, 200, 200, 200, 200, 429]);
    });

    it('when one mailbox asks 4 times within 15 minutes in four letter cases (from different IPs), then only 3 mails go out (the quota counts the normalised address)', async () => {
      const proxied = proxiedApp({ EXTERNAL_AUTH_SECRET, SMTP_URL: sink.url });
      const user = await makeUser();
      const [local, domain] = user.email.split('@');
      const variants = [user.email, user.email.toUpperCase(), `${local}@${domain.toUpperCase()}`, `${local[0].toUpperCase()}${local.slice(1)}@${domain}`];
      assert.equal(new Set(variants).size, 4);
      for (const variant of variants) assert.equal((await ask(variant, proxied).set('X-Forwarded-For', nextClientIp())).status, 200);
      await sink.waitFor((m) => m.envelope.to.includes(user.email) && sink.messages.filter((n) => n.envelope.to.includes(user.email)).length >= 3);
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(sink.messages.filter((m) => m.envelope.to.includes(user.email)).length, 3);
    });

    it('when the sign-in page form is posted, then the page says "Check your email"; an invalid email comes back at its field', async () => {
      const ok = await request(app).post('/auth/sign-in/magic-link').type('form').send({ email: uniqueEmail('form') });
      assert.equal(ok.status, 200);
      assert.match(ok.headers['content-type'], /text\/html/);
      assert.match(ok.text, /Check your email/);

      const bad = await request(app).post('/auth/sign-in/magic-link').type('form').send({ email: 'nope' });
      assert.equal(bad.status, 400);
      assert.match(bad.text, /id="magic-link-email-error"[^>]*>must be a valid email address/);
      assert.match(bad.text, /id="magic-link-email"[^>]*value="nope"/);
    });
  });

  describe('using a link', () => {
    it('when a link is followed, then 302 to /admin with auth_token, csrf_token and an auth_session cookie (HttpOnly, SameSite=Lax, not Secure outside production), and the use is logged', async () => {
      const user = await createTestUser('editor');
      const res = await signInByLink(app, sink, user.email);
      const cookies = setCookies(res);
      assert.ok(cookies.auth_token.value);
      assert.ok(cookies.csrf_token.value);
      const session = cookies.auth_session;
      assert.match(session.value, /^s:/, 'signed with EXTERNAL_AUTH_SECRET');
      assert.equal(session.attributes.httponly, true);
      assert.equal(session.attributes.samesite, 'Lax');
      assert.equal(session.attributes.path, '/');
      assert.equal(session.attributes.secure, undefined);
      assert.equal(res.headers['cache-control'], 'no-store');
      const rows = await ctx().models.ActivityLog.findAll({ where: { action: 'auth.magic_link_used', userId: user.id } });
      assert.equal(rows.length, 1);
      assert.equal((rows[0].details as { method?: string }).method, 'magic_link');
    });

    it('when NODE_ENV is production, then the session cookie is Secure', async () => {
      const prod = magicLinkApp(sink, { NODE_ENV: 'production', TRUST_PROXY: 'true' });
      const user = await createTestUser('viewer');
      const link = await mailedLink(prod, sink, user.email);
      const res = await request(prod).get(`${link.pathname}${link.search}`).set('X-Forwarded-Proto', 'https');
      assert.equal(res.status, 302);
      assert.equal(setCookies(res).auth_session.attributes.secure, true);
    });

    it('when the link carries a same-origin callbackURL, then it lands there; an off-origin one falls back to /admin', async () => {
      const user = await createTestUser('viewer');
      const inside = await follow(app, await mailedLink(app, sink, user.email, { callbackURL: '/admin/profile?tab=1' }));
      assert.equal(inside.headers.location, '/admin/profile?tab=1');
      // Each link asked for from its own address: six from one would meet the per-address limit.
      const proxied = proxiedApp({ EXTERNAL_AUTH_SECRET, SMTP_URL: sink.url });
      for (const callbackURL of ['https://evil.test/x', '//evil.test/x', '/\\evil.test', '/.//evil.test/x', '/a/..//evil.test/x']) {
        const { email } = await createTestUser('viewer');
        assert.equal((await ask(email, proxied).set('X-Forwarded-For', nextClientIp())).status, 200);
        const link = linkFrom(await sink.waitFor((m) => m.envelope.to.includes(email)));
        link.searchParams.set('callbackURL', callbackURL);
        const res = await follow(app, link);
        assert.equal(res.status, 302);
        assert.equal(res.headers.location, '/admin', callbackURL);
      }
    });

    it('when five clicks of one link arrive at once, then exactly one signs in and the others land on the sign-in page with the error', async () => {
      const user = await createTestUser('viewer');
      const link = await mailedLink(app, sink, user.email);
      const answers = await Promise.all(Array.from({ length: 5 }, () => follow(app, link)));
      const winners = answers.filter((r) => r.headers.location === '/admin');
      assert.equal(winners.length, 1);
      assert.ok(setCookies(winners[0]).auth_session);
      for (const loser of answers.filter((r) => r !== winners[0])) {
        assert.equal(loser.status, 302);
        assert.equal(loser.headers.location, LOGIN_WITH_ERROR);
        assert.equal(setCookies(loser).auth_session, undefined);
        assert.equal(setCookies(loser).auth_token, undefined);
      }
    });

    it('when a newer link is mailed, then the older one no longer signs in and the newer one does', async () => {
      const user = await createTestUser('viewer');
      const proxied = proxiedApp({ EXTERNAL_AUTH_SECRET, SMTP_URL: sink.url });
      const mailLink = async (): Promise<URL> => {
        const before = sink.messages.length;
        assert.equal((await ask(user.email, proxied).set('X-Forwarded-For', nextClientIp())).status, 200);
        return linkFrom(await sink.waitFor((m) => m.envelope.to.includes(user.email) && sink.messages.indexOf(m) >= before));
      };
      const older = await mailLink();
      const newer = await mailLink();

      const oldClick = await follow(app, older);
      assert.equal(oldClick.headers.location, LOGIN_WITH_ERROR);
      assert.deepEqual(Object.keys(setCookies(oldClick)), []);
      assert.equal((await follow(app, newer)).headers.location, '/admin');
      assert.equal(await ctx().models.AuthVerification.count({ where: { identifier: user.email } }), 0);
    });

    it('when the link is bad, missing, expired or used, then 302 to /auth/login?notice=magic_link_invalid without cookies', async () => {
      const user = await createTestUser('viewer');
      const link = await mailedLink(app, sink, user.email);
      await ctx().models.AuthVerification.update({ expiresAt: new Date(Date.now() - 1000) }, { where: { identifier: user.email } });
      const expired = await follow(app, link);
      assert.equal(expired.headers.location, LOGIN_WITH_ERROR);
      const bad = await request(app).get('/auth/magic-link/verify?token=abc');
      const missing = await request(app).get('/auth/magic-link/verify');
      for (const res of [expired, bad, missing]) {
        assert.equal(res.status, 302);
        assert.equal(res.headers.location, LOGIN_WITH_ERROR);
        assert.deepEqual(Object.keys(setCookies(res)), []);
      }
      const reasons = (await ctx().models.ActivityLog.findAll({ where: { action: 'auth.login_failed', email: user.email } })).map(
        (row) => (row.details as { reason?: string }).reason,
      );
      assert.deepEqual(reasons, ['expired']);
    });

    it('when the user logs out everywhere, resets the password, or is deactivated (and reactivated) after the link was mailed, then the link is dead', async () => {
      const { token: adminToken } = await createUserWithToken('admin');
      const admin = { Authorization: `Bearer ${adminToken}` };

      const a = await createTestUser('viewer');
      const afterLogoutAll = await mailedLink(app, sink, a.email);
      assert.equal((await request(app).post('/auth/logout-all').set('Authorization', `Bearer ${await tokenFor(a)}`)).status, 200);
      assert.equal((await follow(app, afterLogoutAll)).headers.location, LOGIN_WITH_ERROR);

      const b = await createTestUser('viewer');
      const afterReset = await mailedLink(app, sink, b.email);
      const resetMail = sink.messages.length;
      assert.equal((await request(app).post('/auth/request-password-reset').send({ email: b.email })).status, 200);
      const resetLink = /(http\S+reset-password\?token=\S+)/.exec((await sink.waitFor((m) => m.envelope.to.includes(b.email) && sink.messages.indexOf(m) >= resetMail)).text);
      const resetToken = new URL(resetLink![1]).searchParams.get('token');
      assert.equal((await request(app).post('/auth/reset-password').send({ token: resetToken, password: 'a new password 1' })).status, 200);
      assert.equal((await follow(app, afterReset)).headers.location, LOGIN_WITH_ERROR);

      const c = await createTestUser('viewer');
      const afterDeactivation = await mailedLink(app, sink, c.email);
      assert.equal((await request(app).patch(`/api/users/${c.id}`).set(admin).send({ active: false })).status, 200);
      assert.equal((await request(app).patch(`/api/users/${c.id}`).set(admin).send({ active: true })).status, 200);
      assert.equal((await follow(app, afterDeactivation)).headers.location, LOGIN_WITH_ERROR);

      // A fresh link after all that works.
      assert.equal((await follow(app, await mailedLink(app, sink, c.email))).headers.location, '/admin');
    });

    it('when an unknown email follows its link, then a viewer is created; with registration closed by then, nobody is', async () => {
      const email = uniqueEmail('newcomer');
      const res = await follow(app, await mailedLink(app, sink, email));
      assert.equal(res.headers.location, '/admin');
      const created = await ctx().models.User.findOne({ where: { email } });
      assert.equal(created?.role, 'viewer');

      const late = uniqueEmail('late');
      const link = await mailedLink(app, sink, late);
      await ctx().models.Setting.upsert({ key: 'security.allowRegistration', value: false });
      try {
        assert.equal((await follow(app, link)).headers.location, LOGIN_WITH_ERROR);
        assert.equal(await ctx().models.User.count({ where: { email: late } }), 0);
      } finally {
        await ctx().models.Setting.destroy({ where: { key: 'security.allowRegistration' } });
      }
    });
  });

  it('when the OpenAPI document is fetched, then both routes are described with the schemas they validate with, and guarded routes list auth_session', async () => {
    const doc = (await request(app).get('/api/openapi.json')).body;
    const ask = doc.paths['/auth/sign-in/magic-link'].post;
    assert.deepEqual(Object.keys(ask.requestBody.content['application/json'].schema.properties).sort(), ['callbackURL', 'email']);
    assert.ok(ask.responses['503'] && ask.responses['429'] && ask.responses['400']);
    const verify = doc.paths['/auth/magic-link/verify'].get;
    assert.deepEqual(verify.parameters.map((p: { name: string }) => p.name).sort(), ['callbackURL', 'token']);
    assert.equal(doc.components.securitySchemes.sessionAuth.name, 'auth_session');
  });

  describe('the server session', () => {
    it('when only auth_session is sent, then GET /auth/me answers the user and the permission guards judge its role', async () => {
      const admin = await createTestUser('admin', { firstName: 'Ada' });
      const adminSession = sessionOnly(await signInByLink(app, sink, admin.email));
      const me = await request(app).get('/auth/me').set('Cookie', adminSession);
      assert.equal(me.status, 200);
      assert.equal(me.body.user.id, admin.id);
      assert.equal(me.body.user.firstName, 'Ada');
      assert.equal((await request(app).get('/api/users').set('Cookie', adminSession)).status, 200);

      const viewer = await createTestUser('viewer');
      const viewerSession = sessionOnly(await signInByLink(app, sink, viewer.email));
      assert.equal((await request(app).get('/api/users').set('Cookie', viewerSession)).status, 403);
      const page = await request(app).get('/api/users').set('Cookie', viewerSession).set('Accept', 'text/html');
      assert.equal(page.status, 302);
      assert.equal(page.headers.location, '/auth/login?notice=forbidden');
    });

    it('when a tampered or unknown session cookie is sent, then 401', async () => {
      assert.equal((await request(app).get('/auth/me').set('Cookie', 'auth_session=s%3Aforged.signature')).status, 401);
      const user = await createTestUser('viewer');
      const cookie = sessionOnly(await signInByLink(app, sink, user.email));
      assert.equal((await request(app).get('/auth/me').set('Cookie', cookie.replace(/.(;|$)/, 'x$1'))).status, 401);
      // The real session id without its signature, bare or with the signed-cookie prefix, names no session.
      const sid = decodeURIComponent(cookie.replace(/^auth_session=([^;]*).*$/, '$1')).slice(2).split('.')[0];
      assert.equal((await request(app).get('/auth/me').set('Cookie', cookie)).status, 200);
      for (const unsigned of [sid, `s:${sid}`, `s:${sid}.`]) {
        assert.equal((await request(app).get('/auth/me').set('Cookie', `auth_session=${encodeURIComponent(unsigned)}`)).status, 401, unsigned);
      }
    });

    it('when a request carries auth_session and a bad or logged-out Bearer token, then 401: the Bearer alone is judged', async () => {
      const user = await createTestUser('viewer');
      const cookie = sessionOnly(await signInByLink(app, sink, user.email));
      assert.equal((await request(app).get('/auth/me').set('Cookie', cookie)).status, 200);

      const garbage = await request(app).get('/auth/me').set('Cookie', cookie).set('Authorization', 'Bearer garbage');
      assert.equal(garbage.status, 401);

      // Another token of the same user, logged out: the live session does not rescue it.
      const loggedOut = await tokenFor(user);
      assert.equal((await request(app).post('/auth/logout').set('Authorization', `Bearer ${loggedOut}`)).status, 200);
      const revoked = await request(app).get('/auth/me').set('Cookie', cookie).set('Authorization', `Bearer ${loggedOut}`);
      assert.equal(revoked.status, 401);
      assert.equal((await request(app).get('/auth/me').set('Cookie', cookie)).status, 200, 'the session itself still works');
    });

    it('when the user is deactivated, changes role, or logs out everywhere from another device, then the session ends at once', async () => {
      const { token: adminToken } = await createUserWithToken('admin');
      const admin = { Authorization: `Bearer ${adminToken}` };
      const cases: Array<(userId: string) => Promise<unknown>> = [
        (id) => request(app).patch(`/api/users/${id}`).set(admin).send({ active: false }),
        (id) => request(app).patch(`/api/users/${id}`).set(admin).send({ role: 'author' }),
        async (id) => request(app).post('/auth/logout-all').set('Authorization', `Bearer ${await tokenFor({ id })}`),
      ];
      for (const end of cases) {
        const user = await createTestUser('viewer');
        const cookie = sessionOnly(await signInByLink(app, sink, user.email));
        assert.equal((await request(app).get('/auth/me').set('Cookie', cookie)).status, 200);
        await end(user.id);
        assert.equal((await request(app).get('/auth/me').set('Cookie', cookie)).status, 401);
      }
    });

    it('when an unsafe request is authenticated by auth_session, then it needs the CSRF token of that user', async () => {
      const user = await createTestUser('viewer');
      const signedIn = await signInByLink(app, sink, user.email);
      const headers = sessionWithCsrf(signedIn);
      const missing = await request(app).post('/auth/logout-all').set('Cookie', headers.Cookie);
      assert.equal(missing.status, 403);
      assert.deepEqual(missing.body, { error: 'Invalid CSRF token' });

      const other = await createTestUser('viewer');
      const foreign = setCookies(await signInByLink(app, sink, other.email)).csrf_token.value;
      const planted = await request(app)
        .post('/auth/logout-all')
        .set('Cookie', `${sessionOnly(signedIn)}; csrf_token=${encodeURIComponent(foreign)}`)
        .set('X-CSRF-Token', foreign);
      assert.equal(planted.status, 403);
      assert.equal((await request(app).get('/auth/me').set('Cookie', headers.Cookie)).status, 200, 'nothing happened');

      const ok = await request(app).post('/auth/logout-all').set(headers);
      assert.equal(ok.status, 200);
    });

    it('when the user signs out, then the session is destroyed, auth_session is cleared, and the old cookie is refused', async () => {
      const user = await createTestUser('viewer');
      const signedIn = await signInByLink(app, sink, user.email);
      const headers = sessionWithCsrf(signedIn);
      const res = await request(app).post('/auth/logout').set(headers);
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, { success: true });
      const cleared = setCookies(res).auth_session;
      assert.ok(cleared, 'the cookie is cleared');
      assert.equal(cleared.value, '');
      assert.equal((await request(app).get('/auth/me').set('Cookie', headers.Cookie)).status, 401);
      const sid = decodeURIComponent(headers.Cookie).match(/auth_session=s:([^.]+)\./)![1];
      assert.equal(await ctx().store.get(`sess:${sid}`), null, 'the session record is gone');
    });

    it('when a session is created on one instance, then a second instance sharing the store and database honours it and can end it', async () => {
      const first = magicLinkApp(sink);
      const second = magicLinkApp(sink);
      const user = await createTestUser('viewer');
      const signedIn = await signInByLink(first, sink, user.email);
      const headers = sessionWithCsrf(signedIn);
      assert.equal((await request(second).get('/auth/me').set('Cookie', headers.Cookie)).status, 200);
      assert.equal((await request(second).post('/auth/logout').set(headers)).status, 200);
      assert.equal((await request(first).get('/auth/me').set('Cookie', headers.Cookie)).status, 401);
    });

    it('when requests carry no session cookie (password sign-in, Bearer, anonymous pages), then no session is created and the session store is never touched', async () => {
      const touched: string[] = [];
      const { env, logger, sequelize, models, store } = ctx();
      /** Records every call that names a session key; on Redis, connect-redis's calls on its client too. */
      const watch = <T extends object>(target: T): T =>
        new Proxy(target, {
          get(object, name, receiver) {
            const value = Reflect.get(object, name, receiver) as unknown;
            if (name === 'client' && typeof value === 'object' && value !== null) return watch(value);
            if (typeof value !== 'function') return value;
            // The Redis store hands connect-redis a guarded client: watch that one too.
            if (name === 'sessionClient') return () => watch((value as () => object).call(object));
            return (...args: unknown[]) => {
              const keys = (Array.isArray(args[0]) ? args[0] : [args[0]]) as unknown[];
              for (const key of keys) if (typeof key === 'string' && key.startsWith('sess:')) touched.push(`${String(name)} ${key}`);
              return (value as (...a: unknown[]) => unknown).apply(object, args);
            };
          },
        });
      const watchedApp = createApp({ config: loadConfig({ ...env, EXTERNAL_AUTH_SECRET, SMTP_URL: sink.url }), logger, sequelize, models, store: watch(store) });
      // The watch works: a session sign-in does touch the store.
      const probe = await createTestUser('viewer');
      await signInByLink(watchedApp, sink, probe.email);
      assert.ok(touched.length > 0, 'the watch sees session writes');
      touched.length = 0;

      const { user, token } = await createUserWithToken('viewer');
      const withPassword = await makeUser();
      for (const res of [
        await request(watchedApp).post('/auth/login').send({ email: withPassword.email, password: PASSWORD }),
        await request(watchedApp).get('/auth/me').set('Authorization', `Bearer ${token}`),
        await request(watchedApp).get('/auth/login').set('Accept', 'text/html'),
        await request(watchedApp).get('/auth/me'),
        await request(watchedApp).post('/auth/logout'),
        await request(watchedApp).post('/auth/sign-in/magic-link').send({ email: user.email }),
      ]) {
        assert.equal(setCookies(res).auth_session, undefined);
      }
      assert.deepEqual(touched, []);
    });
  });
});
