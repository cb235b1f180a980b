import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import request from 'supertest';
import type { Express } from 'express';
import { buildApp, ctx } from '../support/context';
import { cookieHeader, makeUser, payloadOf, setCookies, tokenFor, PASSWORD } from '../support/auth';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import { magicLinkApp, signInByLink } from '../support/magic-link';
import type { User } from '../../src/models';

const FIREFOX_ON_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const SAFARI_ON_IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

/** CONTRACT 8: a session per sign-in, listed, ended one by one, rotated with reuse detection, with an absolute end. */
describe('sessions (CONTRACT 8)', () => {
  let sink: SmtpSink;
  let app: Express;
  /** The same service with no reuse window: a superseded token is dead at once (reuse tests need no waiting). */
  let strict: Express;

  before(async () => {
    sink = await startSmtpSink();
    const mail = { SMTP_URL: sink.url, EMAIL_FROM: 'auth@example.test' };
    app = buildApp({ env: mail });
    strict = buildApp({ env: { ...mail, REFRESH_REUSE_WINDOW_SECONDS: '0' } });
  });
  after(() => sink.stop());

  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
  const me = (on: Express, token: string) => request(on).get('/auth/me').set(bearer(token));
  const refresh = (on: Express, token: string) => request(on).post('/auth/refresh').set(bearer(token));

  async function signIn(user: User, userAgent = FIREFOX_ON_LINUX, on: Express = app): Promise<string> {
    const res = await request(on).post('/auth/login').set('User-Agent', userAgent).send({ email: user.email, password: PASSWORD });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.token as string;
  }

  describe('one session per sign-in', () => {
    it('when a user signs in twice, then both sessions are listed newest first, with method, browser and OS read from the User-Agent, this one marked current', async () => {
      const user = await makeUser();
      const first = await signIn(user, FIREFOX_ON_LINUX);
      const second = await signIn(user, SAFARI_ON_IPHONE);

      const res = await request(app).get('/auth/sessions').set(bearer(second));

      assert.equal(res.status, 200);
      assert.deepEqual(res.body.sessions.map((s: { id: string }) => s.id), [payloadOf(second).sid, payloadOf(first).sid]);
      const [phone, desktop] = res.body.sessions;
      assert.deepEqual([phone.current, desktop.current], [true, false]);
      assert.equal(phone.method, 'password');
      assert.match(phone.browser, /Safari 17/);
      assert.match(phone.os, /iOS 17/);
      assert.match(desktop.browser, /Firefox 133/);
      assert.match(desktop.os, /Linux/);
      assert.equal(desktop.userAgent, FIREFOX_ON_LINUX);
      assert.ok(desktop.ip);
      for (const key of ['createdAt', 'lastUsedAt', 'expiresAt']) assert.ok(!Number.isNaN(Date.parse(desktop[key])), key);
      const days = (Date.parse(desktop.expiresAt) - Date.parse(desktop.createdAt)) / 86_400_000;
      assert.equal(Math.round(days), 90, 'the default absolute lifetime is 90 days');
    });

    it('when the sign-in was by magic link, then its auth_session belongs to the same session: ending the session ends the auth_session too', async () => {
      const user = await makeUser();
      const linkApp = magicLinkApp(sink);
      const verified = await signInByLink(linkApp, sink, user.email);
      const sid = payloadOf(setCookies(verified).auth_token.value).sid as string;
      const sessionOnly = `auth_session=${setCookies(verified).auth_session.value}`;
      assert.equal((await request(linkApp).get('/auth/me').set('Cookie', sessionOnly)).status, 200);
      const listed = await request(linkApp).get('/auth/sessions').set('Cookie', sessionOnly);
      assert.deepEqual(listed.body.sessions.map((s: { id: string; method: string; current: boolean }) => [s.id, s.method, s.current]), [[sid, 'magic_link', true]]);

      const other = await signIn(user);
      assert.equal((await request(linkApp).delete(`/auth/sessions/${sid}`).set(bearer(other))).status, 204);

      assert.equal((await request(linkApp).get('/auth/me').set('Cookie', sessionOnly)).status, 401);
    });
  });

  describe('rotation and reuse detection', () => {
    it('when one token is refreshed twice in parallel, then both refreshes succeed and continue the same session', async () => {
      const user = await makeUser();
      const token = await signIn(user);

      const [a, b] = await Promise.all([refresh(app, token), refresh(app, token)]);

      assert.deepEqual([a.status, b.status], [200, 200]);
      assert.equal(payloadOf(a.body.token).sid, payloadOf(token).sid);
      assert.equal(payloadOf(b.body.token).sid, payloadOf(token).sid);
      assert.equal((await me(app, a.body.token)).status, 200);
      assert.equal((await me(app, b.body.token)).status, 200);
      assert.equal((await me(app, token)).status, 200, 'the superseded token works through the reuse window');
    });

    it('when a superseded token is refreshed after the reuse window, then every token of that session dies, only of that session, and the owner is told', async () => {
      const user = await makeUser();
      const stolen = await signIn(user, FIREFOX_ON_LINUX, strict);
      const otherDevice = await signIn(user, SAFARI_ON_IPHONE, strict);
      const owners = (await refresh(strict, stolen)).body.token as string;
      assert.equal((await me(strict, stolen)).status, 401, 'with no window, the superseded token ends at once');

      const reuse = await refresh(strict, stolen).set('User-Agent', 'curl/8.0');

      assert.equal(reuse.status, 401);
      assert.deepEqual(reuse.body, { error: 'Invalid or expired token' });
      assert.equal((await me(strict, owners)).status, 401, "the owner's newer token of that session ends too");
      assert.equal((await refresh(strict, owners)).status, 401);
      assert.equal((await me(strict, otherDevice)).status, 200, 'other sessions stay');
      const row = await ctx().models.ActivityLog.findOne({ where: { action: 'session.reuse_detected', userId: user.id } });
      assert.ok(row, 'session.reuse_detected is recorded');
      assert.equal(row.userAgent, 'curl/8.0');
      assert.ok(row.ip);
      assert.equal((row.details as { sessionId: string }).sessionId, payloadOf(stolen).sid);
      const mail = await sink.waitFor((m) => m.envelope.to.includes(user.email) && /ended for your safety/.test(m.subject));
      // Where the old token came from as facts (IP; browser and OS when parsed), never its raw User-Agent (issue 44).
      assert.match(mail.text, /IP address: /);
      assert.ok(!mail.text.includes('curl/8.0'));
    });

    it('when a token is refreshed, then lastUsedAt moves and the new token keeps sid and auth_time', async () => {
      const user = await makeUser();
      const token = await signIn(user);
      const sid = payloadOf(token).sid as string;
      await ctx().models.Session.update({ lastUsedAt: new Date(Date.now() - 3_600_000) }, { where: { id: sid } });

      const res = await refresh(app, token);

      assert.equal(payloadOf(res.body.token).auth_time, payloadOf(token).auth_time);
      const row = await ctx().models.Session.findByPk(sid);
      assert.ok(row && Date.now() - row.lastUsedAt.getTime() < 60_000);
    });
  });

  describe('absolute lifetime', () => {
    it('when the session is past its absolute end, then refresh answers 401 "Session expired, sign in again"', async () => {
      const user = await makeUser();
      const token = await signIn(user);
      await ctx().models.Session.update({ expiresAt: new Date(Date.now() - 1000) }, { where: { id: payloadOf(token).sid as string } });

      const res = await refresh(app, token);

      assert.equal(res.status, 401);
      assert.deepEqual(res.body, { error: 'Session expired, sign in again' });
    });

    it('when SESSION_MAX_AGE is shorter than the token lifetime, then no token of the session outlives it', async () => {
      const short = buildApp({ env: { SESSION_MAX_AGE: '120' } });
      const user = await makeUser();
      const token = await signIn(user, FIREFOX_ON_LINUX, short);
      const claims = payloadOf(token) as { exp: number; auth_time: number };
      assert.ok(claims.exp <= claims.auth_time + 120, `exp ${claims.exp} past auth_time + 120`);
      const settings = await request(short).get('/api/settings/security').set(bearer(await tokenFor(await makeUser({ role: 'admin' }))));
      assert.deepEqual(settings.body.sessionMaxAgeSeconds, { value: 120, seconds: 120, source: 'env' });
    });
  });

  describe('ending sessions', () => {
    it('when the user ends another session, then its tokens fail at once despite the verification cache; the current one stays', async () => {
      const user = await makeUser();
      const laptop = await signIn(user);
      const phone = await signIn(user, SAFARI_ON_IPHONE);
      assert.equal((await me(app, laptop)).status, 200, 'verified and cached');

      const res = await request(app).delete(`/auth/sessions/${payloadOf(laptop).sid}`).set(bearer(phone));

      assert.equal(res.status, 204);
      assert.equal((await me(app, laptop)).status, 401);
      assert.equal((await refresh(app, laptop)).status, 401);
      assert.equal((await me(app, phone)).status, 200);
      const second = buildApp();
      assert.equal((await me(second, laptop)).status, 401, 'another instance sharing the store and database agrees');
    });

    it("when the id is another user's session, then 404 and it lives on; a malformed id is 400", async () => {
      const owner = await makeUser();
      const stranger = await makeUser();
      const ownerToken = await signIn(owner);

      const foreign = await request(app).delete(`/auth/sessions/${payloadOf(ownerToken).sid}`).set(bearer(await signIn(stranger)));
      const unknown = await request(app).delete(`/auth/sessions/${crypto.randomUUID()}`).set(bearer(await signIn(stranger)));
      const malformed = await request(app).delete('/auth/sessions/not-a-session').set(bearer(await signIn(stranger)));

      assert.deepEqual([foreign.status, foreign.body], [404, { error: 'Session not found' }]);
      assert.equal(unknown.status, 404);
      assert.equal(malformed.status, 400);
      assert.equal((await me(app, ownerToken)).status, 200);
    });

    it('when the user signs out everywhere else, then every other session ends and the count is answered', async () => {
      const user = await makeUser();
      const others = [await signIn(user), await signIn(user)];
      const current = await signIn(user);

      const res = await request(app).post('/auth/sessions/revoke-others').set(bearer(current));

      assert.deepEqual([res.status, res.body], [200, { revoked: 2 }]);
      for (const token of others) assert.equal((await me(app, token)).status, 401);
      assert.equal((await me(app, current)).status, 200);
      const listed = await request(app).get('/auth/sessions').set(bearer(current));
      assert.equal(listed.body.sessions.length, 1);
    });

    it('when the sign-in is older than ten minutes, then ending another session needs a recent sign-in (403 stepUp)', async () => {
      const user = await makeUser();
      const old = await tokenFor(user, { sid: crypto.randomUUID(), authTime: Math.floor(Date.now() / 1000) - 3600 });
      const res = await request(app).post('/auth/sessions/revoke-others').set(bearer(old));
      assert.deepEqual([res.status, res.body], [403, { error: 'Recent sign-in required', stepUp: true }]);
    });

    it('when the user logs out everywhere, then no session is listed any more', async () => {
      const user = await makeUser();
      await signIn(user);
      const token = await signIn(user);
      await request(app).post('/auth/logout-all').set(bearer(token));
      assert.equal(await ctx().models.Session.count({ where: { userId: user.id, revokedAt: null } }), 0);
    });
  });

  describe('admin API', () => {
    it("when an admin lists, ends one and ends all of a user's sessions, then each takes effect at once", async () => {
      const admin = bearer(await tokenFor(await makeUser({ role: 'admin' })));
      const user = await makeUser();
      const [a, b, c] = [await signIn(user), await signIn(user), await signIn(user)];

      const listed = await request(app).get(`/api/users/${user.id}/sessions`).set(admin);
      assert.equal(listed.status, 200);
      assert.equal(listed.body.sessions.length, 3);

      assert.equal((await request(app).delete(`/api/users/${user.id}/sessions/${payloadOf(a).sid}`).set(admin)).status, 204);
      assert.equal((await me(app, a)).status, 401);
      assert.equal((await me(app, b)).status, 200);

      const all = await request(app).delete(`/api/users/${user.id}/sessions`).set(admin);
      assert.deepEqual([all.status, all.body], [200, { revoked: 2 }]);
      assert.equal((await me(app, b)).status, 401);
      assert.equal((await me(app, c)).status, 401);
      const row = await ctx().models.ActivityLog.findOne({ where: { action: 'session.revoked' }, order: [['id', 'DESC']] });
      assert.equal((row?.details as { by: string; targetUserId: string }).by, 'admin');
    });

    it("when the user is unknown, or another user's session is named, then 404; a non-admin gets 403", async () => {
      const admin = bearer(await tokenFor(await makeUser({ role: 'admin' })));
      const user = await makeUser();
      const other = await signIn(await makeUser());

      assert.equal((await request(app).get(`/api/users/${crypto.randomUUID()}/sessions`).set(admin)).status, 404);
      assert.equal((await request(app).delete(`/api/users/${user.id}/sessions/${payloadOf(other).sid}`).set(admin)).status, 404);
      assert.equal((await me(app, other)).status, 200);
      assert.equal((await request(app).get(`/api/users/${user.id}/sessions`).set(bearer(await signIn(user)))).status, 403);
    });
  });

  it('when a browser signs in by form, then its cookie session is listed as current', async () => {
    const user = await makeUser();
    const res = await request(app).post('/auth/login').send({ email: user.email, password: PASSWORD });
    const listed = await request(app).get('/auth/sessions').set('Cookie', cookieHeader(res));
    assert.equal(listed.body.sessions[0].current, true);
  });
});
