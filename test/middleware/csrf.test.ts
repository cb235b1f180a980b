import assert from 'node:assert/strict';
import request from 'supertest';
import { ctx } from '../support/context';
import { PASSWORD, cookieHeader, makeUser, payloadOf, setCookies, tokenFor } from '../support/auth';
import jwt from 'jsonwebtoken';
import { subKey } from '../../src/credentials/sub-keys';

const REFUSED = { error: 'Invalid CSRF token' };

/** A browser session: the cookies login set, and the CSRF token the page would read from its cookie. */
async function browserSession() {
  const user = await makeUser();
  const login = await request(ctx().app).post('/auth/login').send({ email: user.email, password: PASSWORD });
  assert.equal(login.status, 200);
  return { user, token: login.body.token as string, cookie: cookieHeader(login), csrf: setCookies(login).csrf_token.value };
}

async function stillSignedIn(token: string): Promise<boolean> {
  return (await request(ctx().app).get('/auth/me').set('Authorization', `Bearer ${token}`)).status === 200;
}

describe('CSRF protection', () => {
  it('when a cookie-authenticated POST sends the token in X-CSRF-Token, then it is accepted', async () => {
    const s = await browserSession();
    const res = await request(ctx().app).post('/auth/logout').set('Cookie', s.cookie).set('X-CSRF-Token', s.csrf);
    assert.equal(res.status, 200);
    assert.equal(await stillSignedIn(s.token), false);
  });

  it('when a cookie-authenticated form post sends the token in _csrf, then it is accepted (and redirected)', async () => {
    const s = await browserSession();
    const res = await request(ctx().app).post('/auth/logout').type('form').set('Cookie', s.cookie).send({ _csrf: s.csrf });
    assert.equal(res.status, 302);
    assert.match(res.headers.location, /^\/auth\/login\?notice=signed_out$/);
    assert.equal(await stillSignedIn(s.token), false);
  });

  it('when the token is missing, then 403 and nothing happens', async () => {
    const s = await browserSession();
    const res = await request(ctx().app).post('/auth/logout').set('Cookie', s.cookie);
    assert.equal(res.status, 403);
    assert.deepEqual(res.body, REFUSED);
    assert.equal(await stillSignedIn(s.token), true);
  });

  it('when the token is wrong or tampered with, then 403', async () => {
    const s = await browserSession();
    const [nonce, mac] = s.csrf.split('.');
    for (const bad of ['nonsense', `${nonce}.${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`, `${nonce}x.${mac}`, `${s.csrf}.extra`, '']) {
      const res = await request(ctx().app).post('/auth/logout-all').set('Cookie', s.cookie).set('X-CSRF-Token', bad);
      assert.equal(res.status, 403, bad);
      assert.deepEqual(res.body, REFUSED);
    }
    assert.equal(await stillSignedIn(s.token), true);
  });

  it('when header and cookie disagree (both well signed), then 403', async () => {
    const s = await browserSession();
    const again = await request(ctx().app).post('/auth/login').send({ email: s.user.email, password: PASSWORD });
    const secondCsrf = setCookies(again).csrf_token.value;
    const res = await request(ctx().app).post('/auth/logout').set('Cookie', s.cookie).set('X-CSRF-Token', secondCsrf);
    assert.equal(res.status, 403);
  });

  it("when another user's CSRF token is planted in both cookie and header, then 403 (tokens are bound to the user)", async () => {
    const victim = await browserSession();
    const attacker = await browserSession();
    const cookie = `auth_token=${victim.token}; csrf_token=${encodeURIComponent(attacker.csrf)}`;
    const res = await request(ctx().app).post('/auth/logout-all').set('Cookie', cookie).set('X-CSRF-Token', attacker.csrf);
    assert.equal(res.status, 403);
    assert.deepEqual(res.body, REFUSED);
    assert.equal(await stillSignedIn(victim.token), true);
  });

  it('when cookie and header carry the same self-made token (not signed by us), then 403', async () => {
    const victim = await browserSession();
    const forged = 'AAAAAAAAAAAAAAAAAAAAAAAA.BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB';
    const res = await request(ctx().app).post('/auth/logout-all').set('Cookie', `auth_token=${victim.token}; csrf_token=${forged}`).set('X-CSRF-Token', forged);
    assert.equal(res.status, 403);
    assert.equal(await stillSignedIn(victim.token), true);
  });

  it('when only the auth cookie is sent (no CSRF cookie), then 403 even with a header', async () => {
    const s = await browserSession();
    const res = await request(ctx().app).post('/auth/logout').set('Cookie', `auth_token=${s.token}`).set('X-CSRF-Token', s.csrf);
    assert.equal(res.status, 403);
  });

  it('when the request carries a Bearer header, then no CSRF token is needed', async () => {
    const user = await makeUser();
    const token = await tokenFor(user);
    const res = await request(ctx().app).post('/auth/logout').set('Authorization', `Bearer ${token}`).set('Cookie', `auth_token=${token}`);
    assert.equal(res.status, 200);
  });

  it('when the method is safe (GET), then no CSRF token is needed', async () => {
    const s = await browserSession();
    const res = await request(ctx().app).get('/auth/me').set('Cookie', s.cookie);
    assert.equal(res.status, 200);
  });

  it('when exempt routes are posted with an auth cookie and no CSRF token, then they are not refused for CSRF', async () => {
    const s = await browserSession();
    const login = await request(ctx().app).post('/auth/login').set('Cookie', s.cookie).send({ email: s.user.email, password: PASSWORD });
    assert.equal(login.status, 200);
    const refresh = await request(ctx().app).post('/auth/refresh').set('Cookie', s.cookie);
    assert.equal(refresh.status, 200);
    const register = await request(ctx().app).post('/auth/register').set('Cookie', s.cookie).send({ email: 'not-valid', password: 'x' });
    assert.equal(register.status, 400);
    const seed = await request(ctx().app).post('/auth/seed-admin').set('Cookie', s.cookie).send({});
    assert.notEqual(seed.status, 403);
    for (const path of ['/auth/request-password-reset', '/auth/reset-password', '/auth/otp/request', '/auth/otp/verify', '/auth/sign-in/magic-link', '/AUTH/LOGIN/']) {
      const res = await request(ctx().app).post(path).set('Cookie', s.cookie).send({});
      assert.ok(!(res.status === 403 && res.body.error === REFUSED.error), `${path} was refused for CSRF`);
    }
  });

  it('when a non-exempt route under /api is posted with the auth cookie and no token, then 403 before the route runs', async () => {
    const s = await browserSession();
    const res = await request(ctx().app).put(`/api/user-profiles/${s.user.id}`).set('Cookie', s.cookie).send({ customData: {} });
    assert.equal(res.status, 403);
    assert.deepEqual(res.body, REFUSED);
  });

  it('when an admin signed in by cookies sends DELETE or PATCH of a user without X-CSRF-Token, then 403 Invalid CSRF token and the row is untouched', async () => {
    const admin = await makeUser({ role: 'admin' });
    const target = await makeUser();
    const login = await request(ctx().app).post('/auth/login').send({ email: admin.email, password: PASSWORD });
    assert.equal(login.status, 200);
    const cookie = cookieHeader(login);

    const del = await request(ctx().app).delete(`/api/users/${target.id}`).set('Cookie', cookie);
    assert.equal(del.status, 403);
    assert.deepEqual(del.body, REFUSED);
    const patch = await request(ctx().app).patch(`/api/users/${target.id}`).set('Cookie', cookie).send({ role: 'editor' });
    assert.equal(patch.status, 403);
    assert.deepEqual(patch.body, REFUSED);
    const row = await ctx().models.User.findByPk(target.id);
    assert.ok(row, 'the user row still exists');
    assert.equal(row.role, 'viewer');

    // The CSRF token was the only thing missing: with it, the same DELETE goes through.
    const allowed = await request(ctx().app).delete(`/api/users/${target.id}`).set('Cookie', cookie).set('X-CSRF-Token', setCookies(login).csrf_token.value);
    assert.equal(allowed.status, 204);
    assert.equal(await ctx().models.User.findByPk(target.id), null);
  });

  it('when the auth cookie has expired, then it still speaks for its user: a logout without the token is refused, with it accepted', async () => {
    const s = await browserSession();
    // Signed as the service signs (its token-signing sub-key and kid): only the expiry differs.
    const header = JSON.parse(Buffer.from(s.token.split('.')[0], 'base64url').toString('utf8')) as jwt.JwtHeader;
    const expired = jwt.sign({ ...payloadOf(s.token), exp: Math.floor(Date.now() / 1000) - 60 }, subKey(ctx().config.jwtSecret, 'tokenSigning'), { header });
    const cookie = `auth_token=${expired}; csrf_token=${encodeURIComponent(s.csrf)}`;
    const refused = await request(ctx().app).post('/auth/logout').set('Cookie', cookie);
    assert.equal(refused.status, 403);
    assert.deepEqual(refused.body, REFUSED);
    const accepted = await request(ctx().app).post('/auth/logout').set('Cookie', cookie).set('X-CSRF-Token', s.csrf);
    assert.equal(accepted.status, 200);
  });

  it('when the auth cookie is not a token of ours, then there is no session to protect (the guard answers)', async () => {
    const res = await request(ctx().app).post('/auth/logout-all').set('Cookie', 'auth_token=garbage');
    assert.equal(res.status, 401);
  });
});
