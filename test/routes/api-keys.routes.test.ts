import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import request from 'supertest';
import type { Express } from 'express';
import { buildApp, ctx, sqlSentDuring } from '../support/context';
import { createUserWithToken, tokenFor } from '../support/users';
import type { Role, User } from '../../src/models';

/** CONTRACT 11: API keys, made once, acting as their owner within the owner's role of now. */
describe('API keys (CONTRACT 11)', () => {
  let app: Express;
  before(() => {
    app = ctx().app;
  });

  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
  const invalid = { error: 'Invalid API key' };
  /** The HMAC key the service derives from JWT_SECRET for API key hashes (credentials/api-keys.ts). */
  const hashKey = () => Buffer.from(crypto.hkdfSync('sha256', ctx().config.jwtSecret, 'auth-service', 'api-keys.v1', 32));

  async function makeKey(token: string, body: Record<string, unknown> = { name: 'ci' }, on: Express = app) {
    const res = await request(on).post('/auth/api-keys').set(bearer(token)).send(body);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body as { apiKey: { id: string; prefix: string; permissions: string[]; expiresAt: string | null }; key: string };
  }

  async function owner(role: Role): Promise<{ user: User; token: string; key: string; id: string }> {
    const { user, token } = await createUserWithToken(role);
    const { key, apiKey } = await makeKey(token);
    return { user, token, key, id: apiKey.id };
  }

  describe('making, listing, revoking', () => {
    it('when a key is made, then 201 with ak_ and 43 base64url characters shown once, stored as a keyed hash, listed without it', async () => {
      const { user, token } = await createUserWithToken('editor');
      const res = await request(app).post('/auth/api-keys').set(bearer(token)).send({ name: 'deploy', expiresInDays: 30 });
      assert.equal(res.status, 201);
      assert.match(res.body.key, /^ak_[A-Za-z0-9_-]{43}$/);
      assert.equal(res.headers['cache-control'], 'no-store');
      assert.deepEqual(Object.keys(res.body.apiKey).sort(), ['createdAt', 'expiresAt', 'id', 'lastUsedAt', 'name', 'permissions', 'prefix']);
      assert.equal(res.body.apiKey.prefix, res.body.key.slice(0, 9));
      assert.deepEqual(res.body.apiKey.permissions, ['create:content', 'edit:any-content', 'edit:own-content', 'publish:content', 'delete:own-content', 'access:admin']);
      const days = (Date.parse(res.body.apiKey.expiresAt) - Date.parse(res.body.apiKey.createdAt)) / 86_400_000;
      assert.equal(Math.round(days), 30);

      const row = await ctx().models.ApiKey.findByPk(res.body.apiKey.id, { rejectOnEmpty: true });
      assert.equal(row.userId, user.id);
      assert.notEqual(row.keyHash, res.body.key);
      assert.ok(!JSON.stringify(row.toJSON()).includes(res.body.key.slice(9)), 'no part of the secret beyond the prefix is stored');
      const expected = crypto.createHmac('sha256', hashKey()).update(res.body.key).digest('hex');
      assert.equal(row.keyHash, expected, 'HMAC-SHA256 under the key derived from JWT_SECRET');

      const list = await request(app).get('/auth/api-keys').set(bearer(token));
      assert.equal(list.status, 200);
      assert.equal(list.body.apiKeys.length, 1);
      assert.ok(!JSON.stringify(list.body).includes(res.body.key));
    });

    it('when a sign-in is older than the step-up window, then making a key is 403 stepUp', async () => {
      const { user } = await createUserWithToken('admin');
      const old = await tokenFor(user, { sid: crypto.randomUUID(), authTime: Math.floor(Date.now() / 1000) - 3600 });
      const res = await request(app).post('/auth/api-keys').set(bearer(old)).send({ name: 'late' });
      assert.equal(res.status, 403);
      assert.equal(res.body.stepUp, true);
    });

    it('when permissions outside the role, unknown ones or a bad body are asked for, then 400 in the house wording', async () => {
      const { token } = await createUserWithToken('author');
      const outside = await request(app).post('/auth/api-keys').set(bearer(token)).send({ name: 'x', permissions: ['manage:users'] });
      assert.deepEqual(outside.body, { error: 'Validation failed', errors: { permissions: 'must be permissions your role holds' } });
      const unknown = await request(app).post('/auth/api-keys').set(bearer(token)).send({ name: 'x', permissions: ['root'] });
      assert.equal(unknown.status, 400);
      const missing = await request(app).post('/auth/api-keys').set(bearer(token)).send({ expiresInDays: 0 });
      assert.equal(missing.body.errors.name, 'is required');
      assert.ok(missing.body.errors.expiresInDays);
    });

    it('when two revocations of one key race, then exactly one is 204 and the other 404', async () => {
      const { token, id, key } = await owner('viewer');
      const results = await Promise.all([0, 1].map(() => request(app).delete(`/auth/api-keys/${id}`).set(bearer(token))));
      assert.deepEqual(results.map((r) => r.status).sort(), [204, 404]);
      assert.deepEqual((await request(app).get('/auth/me').set('X-API-Key', key)).body, invalid);
    });
  });

  describe('acting with a key', () => {
    it('when a key comes as Bearer or X-API-Key, then it acts as its owner, and the answer sets no cookie', async () => {
      const { user, key } = await owner('viewer');
      for (const headers of [bearer(key), { 'X-API-Key': key }]) {
        const res = await request(app).get('/auth/me').set(headers);
        assert.equal(res.status, 200);
        assert.equal(res.body.user.id, user.id);
        assert.equal(res.headers['set-cookie'], undefined);
      }
    });

    it('when a key is unknown, malformed, revoked or expired, then 401 Invalid API key (never the next credential)', async () => {
      const { token, key, id } = await owner('admin');
      const unknown = `ak_${crypto.randomBytes(32).toString('base64url')}`;
      for (const bad of [unknown, 'ak_short', `${key}x`, '']) {
        const res = await request(app).get('/auth/me').set('X-API-Key', bad);
        assert.equal(res.status, 401, bad);
        assert.deepEqual(res.body, invalid);
      }
      // A bad key beside a good token cookie is still judged by the key alone.
      const withCookie = await request(app).get('/auth/me').set('X-API-Key', unknown).set('Cookie', `auth_token=${token}`);
      assert.deepEqual(withCookie.body, invalid);

      assert.equal((await request(app).get('/auth/me').set('X-API-Key', key)).status, 200);
      assert.equal((await request(app).delete(`/auth/api-keys/${id}`).set(bearer(token))).status, 204);
      assert.deepEqual((await request(app).get('/auth/me').set('X-API-Key', key)).body, invalid);

      const { user } = await createUserWithToken('viewer');
      const expiring = await ctx().models.ApiKey.create({
        id: crypto.randomUUID(), userId: user.id, name: 'brief', prefix: 'ak_x', keyHash: '', permissions: ['access:admin'],
        createdAt: new Date(), expiresAt: new Date(Date.now() + 1500),
      });
      const brief = `ak_${crypto.randomBytes(32).toString('base64url')}`;
      await expiring.update({ keyHash: crypto.createHmac('sha256', hashKey()).update(brief).digest('hex') });
      assert.equal((await request(app).get('/auth/me').set('X-API-Key', brief)).status, 200, 'verified and cached');
      await new Promise((resolve) => setTimeout(resolve, 1600));
      assert.deepEqual((await request(app).get('/auth/me').set('X-API-Key', brief)).body, invalid, 'expired though cached');
    });

    it('when a key holds fewer permissions than the role, then it gets only those (guards and content rules)', async () => {
      const { token } = await createUserWithToken('editor');
      const { key } = await makeKey(token, { name: 'drafts', permissions: ['create:content', 'access:admin'] });
      const draft = await request(app).post('/api/content').set('X-API-Key', key).send({ title: 'By key', body: 'x' });
      assert.equal(draft.status, 201, JSON.stringify(draft.body));
      const published = await request(app).post('/api/content').set('X-API-Key', key).send({ title: 'Out', body: 'x', status: 'published' });
      assert.equal(published.status, 403, 'publish:content was not given to the key');
      const byToken = await request(app).post('/api/content').set(bearer(token)).send({ title: 'Out', body: 'x', status: 'published' });
      assert.equal(byToken.status, 201, 'the role itself may publish');
    });

    it('when the owner is demoted or deactivated, then the key is limited at once, though its check was cached', async () => {
      const { token: adminToken } = await createUserWithToken('admin');
      const { user, key } = await owner('admin');
      assert.equal((await request(app).get('/api/users').set('X-API-Key', key)).status, 200);
      assert.equal((await request(app).patch(`/api/users/${user.id}`).set(bearer(adminToken)).send({ role: 'editor' })).status, 200);
      assert.equal((await request(app).get('/api/users').set('X-API-Key', key)).status, 403);
      assert.equal((await request(app).get('/auth/me').set('X-API-Key', key)).body.user.role, 'editor');
      assert.equal((await request(app).patch(`/api/users/${user.id}`).set(bearer(adminToken)).send({ active: false })).status, 200);
      assert.deepEqual((await request(app).get('/auth/me').set('X-API-Key', key)).body, invalid);
    });

    it('when a key tries to manage keys, sessions, second factors, passwords or the admin pages, then 403', async () => {
      const { user, key, id } = await owner('admin');
      const attempts: request.Test[] = [
        request(app).post('/auth/api-keys').send({ name: 'more' }),
        request(app).get('/auth/api-keys'),
        request(app).delete(`/auth/api-keys/${id}`),
        request(app).get('/auth/sessions'),
        request(app).post('/auth/logout-all'),
        request(app).get(`/api/users/${user.id}/api-keys`),
        request(app).get(`/api/users/${user.id}/sessions`),
        request(app).post('/auth/2fa/totp/setup'),
        request(app).post('/auth/step-up').send({ password: 'whatever-it-is' }),
        request(app).post('/auth/email/change').send({ newEmail: 'new@example.test' }),
        request(app).delete('/auth/account'),
        request(app).delete(`/api/users/${user.id}/2fa`),
        request(app).get('/admin/users').set('Accept', 'application/json'),
      ];
      for (const attempt of attempts) {
        const res = await attempt.set('X-API-Key', key);
        assert.equal(res.status, 403, JSON.stringify(res.body));
        assert.deepEqual(res.body, { error: 'Not allowed with an API key' });
      }
      assert.equal((await request(app).get('/auth/me').set('X-API-Key', key)).status, 200, 'the key itself lives on');
    });

    it('when a key posts beside another user’s auth cookie and no CSRF token, then it is exempt from CSRF and acts as the key’s owner', async () => {
      const { user, key } = await owner('author');
      const { token: other } = await createUserWithToken('admin');
      const res = await request(app).post('/api/content').set('X-API-Key', key).set('Cookie', `auth_token=${other}`).send({ title: 'Key', body: 'x' });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.equal(res.body.content.authorId, user.id);
      assert.equal(res.headers['set-cookie'], undefined);
    });

    it('when a key is used many times within a minute, then lastUsedAt is written once', async () => {
      const { key, id } = await owner('viewer');
      const statements = await sqlSentDuring(async () => {
        for (let i = 0; i < 5; i++) assert.equal((await request(app).get('/auth/me').set('X-API-Key', key)).status, 200);
        await new Promise((resolve) => setTimeout(resolve, 200));
      });
      assert.equal(statements.filter((sql) => /^UPDATE .api_keys. SET .last_used_at./.test(sql)).length, 1);
      const row = await ctx().models.ApiKey.findByPk(id, { rejectOnEmpty: true });
      assert.ok(row.lastUsedAt && Date.now() - row.lastUsedAt.getTime() < 10_000);
    });

    it('when a key goes over its rate limit, then 429 with Retry-After; another key of the same owner is unaffected', async () => {
      const limited = buildApp({ env: { API_KEY_RATE_LIMIT: '3' } });
      const { token } = await createUserWithToken('viewer');
      const { key } = await makeKey(token, { name: 'a' }, limited);
      const { key: other } = await makeKey(token, { name: 'b' }, limited);
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await request(limited).get('/auth/me').set('X-API-Key', key)).status);
      assert.deepEqual(statuses, [200, 200, 200, 429]);
      const refused = await request(limited).get('/auth/me').set('X-API-Key', key);
      assert.ok(Number(refused.headers['retry-after']) >= 1);
      assert.equal(refused.headers['x-ratelimit-limit'], '3');
      assert.equal(refused.headers['x-ratelimit-remaining'], '0');
      assert.ok(Number(refused.headers['x-ratelimit-reset']) * 1000 > Date.now());
      assert.equal((await request(limited).get('/auth/me').set('X-API-Key', other)).status, 200);
    });
  });

  describe('admin endpoints (manage:users)', () => {
    it('when an admin lists and revokes a user’s key, then it is gone at once; others get 403, unknown users 404', async () => {
      const { token: adminToken } = await createUserWithToken('admin');
      const { token: editorToken } = await createUserWithToken('editor');
      const { user, key, id } = await owner('viewer');
      const list = await request(app).get(`/api/users/${user.id}/api-keys`).set(bearer(adminToken));
      assert.equal(list.status, 200);
      assert.deepEqual(list.body.apiKeys.map((k: { id: string }) => k.id), [id]);
      assert.equal((await request(app).get(`/api/users/${user.id}/api-keys`).set(bearer(editorToken))).status, 403);
      assert.equal((await request(app).get(`/api/users/${crypto.randomUUID()}/api-keys`).set(bearer(adminToken))).status, 404);

      assert.equal((await request(app).get('/auth/me').set('X-API-Key', key)).status, 200);
      assert.equal((await request(app).delete(`/api/users/${user.id}/api-keys/${id}`).set(bearer(adminToken))).status, 204);
      assert.deepEqual((await request(app).get('/auth/me').set('X-API-Key', key)).body, invalid);
      assert.equal((await request(app).delete(`/api/users/${user.id}/api-keys/${id}`).set(bearer(adminToken))).status, 404);
    });
  });
});
