import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import request from 'supertest';
import jwt from 'jsonwebtoken';
import { ctx } from '../support/context';
import { makeUser, payloadOf, signRaw, PASSWORD } from '../support/auth';
import type { User } from '../../src/models';

/** The key a purpose derives, computed here independently of the service (HKDF-SHA256 of JWT_SECRET). */
const derivedKey = (info: string) => Buffer.from(crypto.hkdfSync('sha256', ctx().config.jwtSecret, 'auth-service', info, 32));
const rawSecret = () => ctx().config.jwtSecret;
/** The kid HS256 tokens carried when they were signed with JWT_SECRET itself. */
const rawKid = () => `hs256-${crypto.createHmac('sha256', rawSecret()).update('kid').digest('base64url').slice(0, 16)}`;
const headerOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString('utf8')) as Record<string, unknown>;
/** A CSRF token as the service made it before the sub-keys (HMAC under the raw secret). */
const rawCsrf = (userId: string) => {
  const nonce = crypto.randomBytes(18).toString('base64url');
  return `${nonce}.${crypto.createHmac('sha256', rawSecret()).update(`csrf.v1\0${nonce}\0${userId}`).digest('base64url')}`;
};

/** Issue 44: JWT_SECRET is never used raw; each purpose has its own HKDF sub-key, and the upgrade keeps sessions. */
describe('JWT_SECRET sub-keys', () => {
  async function signIn(user: User): Promise<string> {
    const res = await request(ctx().app).post('/auth/login').send({ email: user.email, password: PASSWORD });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.token as string;
  }

  /** When the service first signed with the derived key (recorded at the first sign-in of this run). */
  async function subKeysSince(): Promise<number> {
    const row = await ctx().models.Setting.findByPk('signing.subKeysSince', { rejectOnEmpty: true });
    return Number(row.value);
  }

  /** The same claims (a live session's) signed the way the service signed before the sub-keys, issued at `iat`. */
  function rawSigned(token: string, iat: number, kid: string | undefined = rawKid()): string {
    const claims = { ...payloadOf(token), iat };
    return signRaw({ alg: 'HS256', typ: 'JWT', ...(kid ? { kid } : {}) }, claims, rawSecret());
  }

  it('when a token is issued, then it verifies under the token-signing sub-key and not under the raw secret', async () => {
    const token = await signIn(await makeUser());

    assert.throws(() => jwt.verify(token, rawSecret(), { algorithms: ['HS256'] }));
    assert.equal((jwt.verify(token, derivedKey('token-signing.hs256.v1'), { algorithms: ['HS256'] }) as { sub: string }).sub, payloadOf(token).sub);
    assert.notEqual(headerOf(token).kid, rawKid());
  });

  it('when a token signed with the raw secret before the sub-keys is presented, then it still signs in and refreshes into a derived-key token', async () => {
    const token = await signIn(await makeUser());
    // An hour before the recorded time: a test that empties the settings table makes the row anew later in the run,
    // while each app keeps the time it read first (one process, one cut-off).
    const before = (await subKeysSince()) - 3600;
    for (const old of [rawSigned(token, before), rawSigned(token, before, undefined)]) {
      assert.equal((await request(ctx().app).get('/auth/me').set('Authorization', `Bearer ${old}`)).status, 200);
    }

    const refreshed = await request(ctx().app).post('/auth/refresh').set('Authorization', `Bearer ${rawSigned(token, before)}`);

    assert.equal(refreshed.status, 200, JSON.stringify(refreshed.body));
    assert.throws(() => jwt.verify(refreshed.body.token, rawSecret(), { algorithms: ['HS256'] }));
  });

  it('when a raw-secret token was issued after the sub-keys were first used, or claims a lifetime past the longest, then it is refused', async () => {
    const token = await signIn(await makeUser());
    const since = await subKeysSince();
    const late = rawSigned(token, since + 1);
    const endless = signRaw({ alg: 'HS256', typ: 'JWT', kid: rawKid() }, { ...payloadOf(token), iat: since - 60, exp: since + 400 * 86_400 }, rawSecret());

    for (const forged of [late, endless]) {
      assert.equal((await request(ctx().app).get('/auth/me').set('Authorization', `Bearer ${forged}`)).status, 401);
    }
  });

  describe('CSRF', () => {
    const logout = (authToken: string, csrf: string) =>
      request(ctx().app).post('/auth/logout').set('Cookie', `auth_token=${authToken}; csrf_token=${csrf}`).set('X-CSRF-Token', csrf);

    it('when a CSRF token made under the raw secret comes with a token issued after the sub-keys, then it is refused', async () => {
      const user = await makeUser();
      const token = await signIn(user);

      const res = await logout(token, rawCsrf(user.id));

      assert.equal(res.status, 403);
      assert.deepEqual(res.body, { error: 'Invalid CSRF token' });
    });

    it('when a CSRF token made under the raw secret comes with the auth token it was issued with (both before the sub-keys), then it is accepted', async () => {
      const user = await makeUser();
      const old = rawSigned(await signIn(user), (await subKeysSince()) - 60);

      const res = await logout(old, rawCsrf(user.id));

      assert.equal(res.status, 200, JSON.stringify(res.body));
    });

    it('when signing in, then the csrf_token cookie is made under the CSRF sub-key', async () => {
      const user = await makeUser();
      const res = await request(ctx().app).post('/auth/login').send({ email: user.email, password: PASSWORD });
      const cookie = (res.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('csrf_token='));
      const [nonce, mac] = decodeURIComponent((cookie as string).split(';')[0].slice('csrf_token='.length)).split('.');

      assert.equal(mac, crypto.createHmac('sha256', derivedKey('csrf.v1')).update(`csrf.v1\0${nonce}\0${user.id}`).digest('base64url'));
    });
  });
});
