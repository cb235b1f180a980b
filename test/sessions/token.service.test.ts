import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import request from 'supertest';
import { ctx, sqlSentDuring } from '../support/context';
import { PASSWORD, appWith, b64url, cookieHeader, makeUser, payloadOf, setCookies, signRaw, tokenFor } from '../support/auth';

const UNAUTHENTICATED = { error: 'Authentication required' };
const INVALID_TOKEN = { error: 'Invalid or expired token' };

function me(token: string, app = ctx().app) {
  return request(app).get('/auth/me').set('Authorization', `Bearer ${token}`);
}

/** Claims of a token re-signed with the app's own secret but with past times (expired `secondsAgo` ago). */
function expiredToken(token: string, secondsAgo: number): string {
  const claims = payloadOf(token);
  const now = Math.floor(Date.now() / 1000);
  return signRaw({ alg: 'HS256', typ: 'JWT' }, { ...claims, iat: now - 3600 - secondsAgo, exp: now - secondsAgo }, ctx().config.jwtSecret);
}

describe('JWT sessions', () => {
  describe('GET /auth/me', () => {
    it('when signed in by Bearer or by the auth cookie, then the user; without a credential 401', async () => {
      const user = await makeUser({ role: 'author' });
      const login = await request(ctx().app).post('/auth/login').send({ email: user.email, password: PASSWORD });
      const byBearer = await me(login.body.token);
      assert.equal(byBearer.status, 200);
      assert.deepEqual(byBearer.body, {
        user: { id: user.id, email: user.email, username: user.username, firstName: 'Test', lastName: 'User', role: 'author', emailVerified: true, twoFactorEnabled: false },
      });
      // Served from the verification cache, a signed-in /auth/me reads nothing of the user (CONTRACT 9's flag included;
      // the revocation set's own periodic audit may run meanwhile).
      const statements = await sqlSentDuring(() => me(login.body.token));
      assert.deepEqual(statements.filter((sql) => /users|two_factor|user_profiles|sessions/.test(sql)), []);
      const byCookie = await request(ctx().app).get('/auth/me').set('Cookie', cookieHeader(login));
      assert.equal(byCookie.status, 200);
      assert.equal(byCookie.body.user.id, user.id);
      const anonymous = await request(ctx().app).get('/auth/me');
      assert.equal(anonymous.status, 401);
      assert.deepEqual(anonymous.body, UNAUTHENTICATED);
    });

    it('when two users are signed in, then each token answers its own user, also from the cache', async () => {
      const [a, b] = [await makeUser(), await makeUser()];
      const [ta, tb] = [await tokenFor(a), await tokenFor(b)];
      for (let round = 0; round < 2; round++) {
        const [ra, rb] = await Promise.all([me(ta), me(tb)]);
        assert.equal(ra.body.user.id, a.id);
        assert.equal(rb.body.user.id, b.id);
      }
      // Bearer wins over the cookie of another user.
      const mixed = await request(ctx().app).get('/auth/me').set('Authorization', `Bearer ${tb}`).set('Cookie', `auth_token=${ta}`);
      assert.equal(mixed.body.user.id, b.id);
    });
  });

  describe('attacks on the token', () => {
    let token: string;
    before(async () => {
      const user = await makeUser({ role: 'viewer' });
      token = await tokenFor(user);
    });

    it('when the token is valid, then it works (control)', async () => {
      assert.equal((await me(token)).status, 200);
    });

    it('when alg is none (with or without a signature), then 401', async () => {
      const [, payload] = token.split('.');
      for (const alg of ['none', 'None', 'NONE']) {
        const header = b64url({ alg, typ: 'JWT' });
        assert.equal((await me(`${header}.${payload}.`)).status, 401, alg);
        assert.equal((await me(`${header}.${payload}`)).status, 401, alg);
      }
    });

    it('when another algorithm is used (HS512 with the same secret, an RS256 header), then 401', async () => {
      const claims = payloadOf(token);
      const hs512 = signRaw({ alg: 'HS512', typ: 'JWT' }, claims, ctx().config.jwtSecret, 'sha512');
      assert.equal((await me(hs512)).status, 401);
      const hs384 = signRaw({ alg: 'HS384', typ: 'JWT' }, claims, ctx().config.jwtSecret, 'sha384');
      assert.equal((await me(hs384)).status, 401);
      const rs256 = signRaw({ alg: 'RS256', typ: 'JWT' }, claims, ctx().config.jwtSecret);
      assert.equal((await me(rs256)).status, 401);
    });

    it('when the signature is stripped or altered, then 401', async () => {
      const [header, payload, signature] = token.split('.');
      assert.equal((await me(`${header}.${payload}.`)).status, 401);
      assert.equal((await me(`${header}.${payload}`)).status, 401);
      const flipped = signature.slice(0, -2) + (signature.at(-2) === 'A' ? 'B' : 'A') + signature.at(-1);
      assert.equal((await me(`${header}.${payload}.${flipped}`)).status, 401);
      const otherSecret = signRaw({ alg: 'HS256', typ: 'JWT' }, payloadOf(token), crypto.randomBytes(32).toString('hex'));
      assert.equal((await me(otherSecret)).status, 401);
    });

    it('when claims are edited (role → admin, another sub), then 401 and nothing is granted', async () => {
      const [header, , signature] = token.split('.');
      const claims = payloadOf(token);
      const asAdmin = `${header}.${b64url({ ...claims, role: 'admin' })}.${signature}`;
      assert.equal((await me(asAdmin)).status, 401);
      const other = await makeUser({ role: 'admin' });
      const asOther = `${header}.${b64url({ ...claims, sub: other.id, userId: other.id })}.${signature}`;
      assert.equal((await me(asOther)).status, 401);
    });

    it('when the token comes in the query string or the body, then it is ignored', async () => {
      const query = await request(ctx().app).get(`/auth/me?token=${token}&access_token=${token}&auth_token=${token}`);
      assert.equal(query.status, 401);
      const refresh = await request(ctx().app).post(`/auth/refresh?token=${token}`);
      assert.equal(refresh.status, 401);
    });

    it('when the token has expired, then 401 on /auth/me', async () => {
      assert.equal((await me(expiredToken(token, 5))).status, 401);
    });
  });

  describe('POST /auth/refresh', () => {
    it('when the token is valid, then a new token, expiresIn, new cookies and no-store', async () => {
      const user = await makeUser();
      const token = await tokenFor(user);
      const res = await request(ctx().app).post('/auth/refresh').set('Authorization', `Bearer ${token}`);
      assert.equal(res.status, 200);
      assert.equal(res.body.expiresIn, 30 * 86400);
      assert.notEqual(res.body.token, token);
      assert.equal(payloadOf(res.body.token).sub, user.id);
      assert.equal(res.headers['cache-control'], 'no-store');
      const cookies = setCookies(res);
      assert.equal(cookies.auth_token.value, res.body.token);
      assert.ok(cookies.csrf_token.value);
      assert.equal((await me(res.body.token)).status, 200);
      const row = await ctx().models.ActivityLog.findOne({ where: { action: 'auth.refresh', userId: user.id } });
      assert.ok(row);
      assert.ok(!JSON.stringify(row.toJSON()).includes(token));
    });

    it('when the token comes from the auth cookie (no CSRF token needed), then it is refreshed', async () => {
      const user = await makeUser();
      const res = await request(ctx().app).post('/auth/refresh').set('Cookie', `auth_token=${await tokenFor(user)}`);
      assert.equal(res.status, 200);
    });

    it('when the token expired within the grace window, then it is refreshed; beyond it, 401', async () => {
      const user = await makeUser();
      const token = await tokenFor(user);
      const within = await request(ctx().app).post('/auth/refresh').set('Authorization', `Bearer ${expiredToken(token, 3600)}`);
      assert.equal(within.status, 200);
      const beyond = await request(ctx().app).post('/auth/refresh').set('Authorization', `Bearer ${expiredToken(token, 604_800 + 10)}`);
      assert.equal(beyond.status, 401);
      assert.deepEqual(beyond.body, INVALID_TOKEN);
    });

    it('when the grace is 0, then an expired token is refused and a valid one still refreshes', async () => {
      const app = appWith({ env: { JWT_REFRESH_GRACE_SECONDS: '0' } });
      const user = await makeUser();
      const token = await tokenFor(user);
      const expired = await request(app).post('/auth/refresh').set('Authorization', `Bearer ${expiredToken(token, 1)}`);
      assert.equal(expired.status, 401);
      assert.deepEqual(expired.body, INVALID_TOKEN);
      const valid = await request(app).post('/auth/refresh').set('Authorization', `Bearer ${token}`);
      assert.equal(valid.status, 200);
    });

    it('when JWT_EXPIRES_IN is short and the token has run out, then /auth/me refuses it and refresh renews it', async () => {
      const app = appWith({ env: { JWT_EXPIRES_IN: '1s' } });
      const user = await makeUser();
      const login = await request(app).post('/auth/login').send({ email: user.email, password: PASSWORD });
      assert.equal(login.status, 200);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      assert.equal((await me(login.body.token, app)).status, 401);
      const refreshed = await request(app).post('/auth/refresh').set('Authorization', `Bearer ${login.body.token}`);
      assert.equal(refreshed.status, 200);
      assert.equal(refreshed.body.expiresIn, 1);
    });

    it('when the user was deactivated, then 401 "User is not active"', async () => {
      const user = await makeUser();
      const token = await tokenFor(user);
      await user.update({ active: false });
      const res = await request(ctx().app).post('/auth/refresh').set('Authorization', `Bearer ${token}`);
      assert.equal(res.status, 401);
      assert.deepEqual(res.body, { error: 'User is not active' });
    });

    it('when the user no longer exists, or the token is forged or missing, then 401 "Invalid or expired token"', async () => {
      const user = await makeUser();
      const token = await tokenFor(user);
      await ctx().models.UserProfile.destroy({ where: { userId: user.id } });
      await user.destroy();
      for (const header of [`Bearer ${token}`, `Bearer ${token}x`, 'Bearer nonsense', undefined]) {
        const req = request(ctx().app).post('/auth/refresh');
        const res = header ? await req.set('Authorization', header) : await req;
        assert.equal(res.status, 401, String(header));
        assert.deepEqual(res.body, INVALID_TOKEN);
      }
    });

    it('when the token was signed with alg none, then refresh refuses it too', async () => {
      const user = await makeUser();
      const [, payload] = (await tokenFor(user)).split('.');
      const res = await request(ctx().app).post('/auth/refresh').set('Authorization', `Bearer ${b64url({ alg: 'none' })}.${payload}.`);
      assert.equal(res.status, 401);
    });
  });

  describe('sign-out and revocation', () => {
    it('when a cached token is logged out, then it stops working at once (also for refresh), and other tokens go on', async () => {
      const user = await makeUser();
      const [token, other] = [await tokenFor(user), await tokenFor(user)];
      assert.equal((await me(token)).status, 200); // now in the verification cache
      const out = await request(ctx().app).post('/auth/logout').set('Authorization', `Bearer ${token}`);
      assert.equal(out.status, 200);
      assert.deepEqual(out.body, { success: true });
      assert.equal(out.headers['cache-control'], 'no-store');
      assert.equal((await me(token)).status, 401);
      assert.equal((await request(ctx().app).post('/auth/refresh').set('Authorization', `Bearer ${token}`)).status, 401);
      assert.equal((await me(other)).status, 200);
      const row = await ctx().models.ActivityLog.findOne({ where: { action: 'auth.logout', userId: user.id } });
      assert.ok(row);
    });

    it('when a token past its expiry but inside the grace window is logged out, then refresh refuses it afterwards', async () => {
      const user = await makeUser();
      const expired = expiredToken(await tokenFor(user), 3600);
      assert.equal((await me(expired)).status, 401);
      const out = await request(ctx().app).post('/auth/logout').set('Authorization', `Bearer ${expired}`);
      assert.equal(out.status, 200);
      assert.deepEqual(out.body, { success: true });
      const refused = await request(ctx().app).post('/auth/refresh').set('Authorization', `Bearer ${expired}`);
      assert.equal(refused.status, 401);
      assert.deepEqual(refused.body, INVALID_TOKEN);
      assert.ok(await ctx().models.ActivityLog.findOne({ where: { action: 'auth.logout', userId: user.id } }));
      // The same kind of token, not logged out, still refreshes (control).
      const kept = expiredToken(await tokenFor(user), 3600);
      assert.equal((await request(ctx().app).post('/auth/refresh').set('Authorization', `Bearer ${kept}`)).status, 200);
    });

    it('when logging out or out everywhere, then both cookies are cleared on Path=/, the path they were set on', async () => {
      for (const path of ['/auth/logout', '/auth/logout-all']) {
        const user = await makeUser();
        const login = await request(ctx().app).post('/auth/login').send({ email: user.email, password: PASSWORD });
        const set = setCookies(login);
        assert.equal(set.auth_token.attributes.path, '/');
        assert.equal(set.csrf_token.attributes.path, '/');
        const out = await request(ctx().app).post(path).set('Cookie', cookieHeader(login)).set('X-CSRF-Token', set.csrf_token.value);
        assert.equal(out.status, 200, path);
        const cleared = setCookies(out);
        for (const name of ['auth_token', 'csrf_token']) {
          assert.equal(cleared[name].value, '', `${path}: ${name}`);
          assert.match(String(cleared[name].attributes.expires), /1970/, `${path}: ${name}`);
          // A cookie is only removed by a clearing cookie of the same path: another path leaves it in the browser.
          assert.equal(cleared[name].attributes.path, '/', `${path}: ${name} path`);
        }
        assert.equal((await me(login.body.token)).status, 401, path);
      }
    });

    it('when logging out without a valid token, then still 200 and the cookies are cleared', async () => {
      const res = await request(ctx().app).post('/auth/logout');
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, { success: true });
      assert.ok(setCookies(res).auth_token);
    });

    it('when logout-all is called, then every token of the user ends, cached or not; other users are untouched', async () => {
      const user = await makeUser();
      const bystander = await makeUser();
      const tokens = [await tokenFor(user), await tokenFor(user), await tokenFor(user)];
      const theirs = await tokenFor(bystander);
      assert.equal((await me(tokens[1])).status, 200);
      const res = await request(ctx().app).post('/auth/logout-all').set('Authorization', `Bearer ${tokens[0]}`);
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, { success: true });
      for (const token of tokens) {
        assert.equal((await me(token)).status, 401);
        assert.equal((await request(ctx().app).post('/auth/refresh').set('Authorization', `Bearer ${token}`)).status, 401);
      }
      assert.equal((await me(theirs)).status, 200);
      const fresh = await request(ctx().app).post('/auth/login').send({ email: user.email, password: PASSWORD });
      assert.equal((await me(fresh.body.token)).status, 200);
    });

    it('when logout-all is called without a credential, then 401', async () => {
      const res = await request(ctx().app).post('/auth/logout-all');
      assert.equal(res.status, 401);
    });
  });
});
