import assert from 'node:assert/strict';
import request from 'supertest';
import type { Express } from 'express';
import { ctx } from '../support/context';
import { makeUser } from '../support/auth';
import { bearer, signIn, twoInstances } from '../support/two-instances';

const headerOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString('utf8')) as { kid: string; alg: string };

/**
 * CONTRACT 11 across instances (each with its own Redis connection, one database): an API key revoked or its
 * owner demoted on one instance is limited on the other at once, whatever it cached, and stays revoked when
 * Redis restarts empty; a signing key rotated on one signs on the other at once, and tokens of the old key
 * keep working on both; two rotations at once leave exactly one signing key.
 */
describe('API keys and signing keys across two service instances', function () {
  this.timeout(60_000);
  const instances = twoInstances({ env: { JWT_ALGORITHM: 'ES256' } });
  const { stores } = instances;

  // Sign-ins count against the login limit in this Redis too: each test starts from an empty one.
  beforeEach(async () => {
    await stores[0]?.client.flushall();
  });

  async function keyOf(on: Express, token: string): Promise<{ key: string; id: string }> {
    const res = await request(on).post('/auth/api-keys').set(bearer(token)).send({ name: 'job' });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return { key: res.body.key, id: res.body.apiKey.id };
  }

  it('when a key is revoked on one instance, then the other refuses it at once though it had cached it, and after Redis restarts empty', async () => {
    const { first, second } = instances;
    const user = await makeUser({ role: 'editor' });
    const token = await signIn(first, user.email);
    const { key, id } = await keyOf(first, token);
    assert.equal((await request(second).get('/auth/me').set('X-API-Key', key)).status, 200);
    assert.equal((await request(second).get('/auth/me').set('X-API-Key', key)).status, 200, 'cached on the second instance');

    assert.equal((await request(first).delete(`/auth/api-keys/${id}`).set(bearer(token))).status, 204);

    assert.deepEqual((await request(second).get('/auth/me').set('X-API-Key', key)).body, { error: 'Invalid API key' });
    await stores[0].client.flushall();
    assert.equal((await request(second).get('/auth/me').set('X-API-Key', key)).status, 401);
    assert.equal((await request(first).get('/auth/me').set('X-API-Key', key)).status, 401);
  });

  it('when the owner is demoted on one instance, then the key is limited on the other at once', async () => {
    const { first, second } = instances;
    const admin = await makeUser({ role: 'admin' });
    const owner = await makeUser({ role: 'admin' });
    const { key } = await keyOf(first, await signIn(first, owner.email));
    assert.equal((await request(second).get('/api/users').set('X-API-Key', key)).status, 200);
    const demoted = await request(first).patch(`/api/users/${owner.id}`).set(bearer(await signIn(first, admin.email))).send({ role: 'viewer' });
    assert.equal(demoted.status, 200);
    assert.equal((await request(second).get('/api/users').set('X-API-Key', key)).status, 403);
  });

  it('when a signing key is rotated on one instance, then the other signs with it at once and tokens of the old key keep working on both', async () => {
    const { first, second } = instances;
    const admin = await makeUser({ role: 'admin' });
    const user = await makeUser();
    const adminToken = await signIn(second, admin.email);
    const before = await signIn(first, user.email);
    assert.equal((await request(second).get('/auth/me').set(bearer(before))).status, 200);

    const rotated = await request(first).post('/api/settings/keys/rotate').set(bearer(adminToken));
    assert.equal(rotated.status, 200);
    const after = await signIn(second, user.email);
    assert.equal(headerOf(after).kid, rotated.body.key.kid);
    assert.equal(headerOf(after).alg, 'ES256');
    for (const on of [first, second]) {
      for (const token of [before, after, adminToken]) assert.equal((await request(on).get('/auth/me').set(bearer(token))).status, 200);
    }
    const refreshed = await request(second).post('/auth/refresh').set(bearer(before));
    assert.equal(refreshed.status, 200, 'a token of the old key is refreshed, onto the new key');
    assert.equal(headerOf(refreshed.body.token).kid, rotated.body.key.kid);
  });

  it('when two rotations race on the two instances, then both answer 200 and exactly one key signs', async () => {
    const { first, second } = instances;
    const admin = await makeUser({ role: 'admin' });
    const token = await signIn(first, admin.email);
    const results = await Promise.all([first, second].map((on) => request(on).post('/api/settings/keys/rotate').set(bearer(token))));
    assert.deepEqual(results.map((r) => r.status), [200, 200]);
    const signing = await ctx().models.SigningKey.findAll({ where: { retiresAt: null } });
    assert.equal(signing.length, 1);
    assert.ok(results.some((r) => r.body.key.kid === signing[0].kid));
    const listed = (await request(second).get('/api/settings/keys').set(bearer(token))).body.keys as Array<{ kid: string; signing: boolean; signs: string; algorithm: string }>;
    assert.deepEqual(listed.filter((key) => key.signing && key.signs === 'tokens').map((key) => key.kid), [signing[0].kid]);
    // The OpenID Provider's keys rotated with it (CONTRACT 14): still one signing key per algorithm.
    assert.deepEqual(listed.filter((key) => key.signing && key.signs !== 'tokens').map((key) => key.algorithm), ['RS256', 'ES256']);
    const fresh = await signIn(first, admin.email);
    assert.equal(headerOf(fresh).kid, signing[0].kid);
  });
});
