import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import request from 'supertest';
import { Op } from 'sequelize';
import { ctx } from '../support/context';
import { createTestUser, createUserWithToken, tokenFor } from '../support/users';
import { hashClientSecret } from '../../src/services/oidc-provider/oauth-clients.service';

/** CONTRACT 14 "Clients": POST/GET/PATCH/DELETE /api/oauth-clients and POST /api/oauth-clients/:id/secret. */
describe('OpenID Provider applications API (/api/oauth-clients)', () => {
  let auth: { Authorization: string };
  let adminId: string;
  const valid = { name: 'Team wiki', redirectUris: ['https://wiki.example.test/callback'] };

  before(async () => {
    const { user, token } = await createUserWithToken('admin');
    adminId = user.id;
    auth = { Authorization: `Bearer ${token}` };
  });

  const create = (body: unknown) => request(ctx().app).post('/api/oauth-clients').set(auth).send(body as object);
  const activity = (action: string, clientId: string) =>
    ctx().models.ActivityLog.findAll({ where: { action, userId: adminId } }).then((rows) => rows.filter((row) => (row.details as Record<string, unknown>).clientId === clientId));

  it('when an admin registers a confidential application, then 201 with its defaults and a secret shown once; only its hash is stored; oauth_client.created is logged without it', async () => {
    const res = await create({ ...valid, postLogoutRedirectUris: ['https://wiki.example.test/'] });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const { client, clientSecret } = res.body;
    assert.match(clientSecret, /^cs_[A-Za-z0-9_-]{43}$/);
    assert.deepEqual(
      { ...client, clientId: undefined, createdAt: undefined, updatedAt: undefined },
      {
        clientId: undefined, createdAt: undefined, updatedAt: undefined, name: 'Team wiki', redirectUris: valid.redirectUris, postLogoutRedirectUris: ['https://wiki.example.test/'],
        public: false, firstParty: false, allowedScopes: ['openid', 'profile', 'email', 'offline_access'], grantTypes: ['authorization_code', 'refresh_token'],
      },
    );
    const row = await ctx().models.OAuthClient.findByPk(client.clientId, { rejectOnEmpty: true });
    assert.equal(row.secretHash, hashClientSecret(clientSecret));

    const [logged] = await activity('oauth_client.created', client.clientId);
    assert.ok(logged);
    assert.ok(!JSON.stringify(logged.details).includes(clientSecret));

    const one = await request(ctx().app).get(`/api/oauth-clients/${client.clientId}`).set(auth);
    assert.equal(one.status, 200);
    assert.deepEqual(one.body, { client });
    const list = await request(ctx().app).get('/api/oauth-clients').set(auth);
    assert.equal(list.status, 200);
    assert.deepEqual(list.body.clients.find((listed: { clientId: string }) => listed.clientId === client.clientId), client);
    for (const text of [JSON.stringify(one.body), JSON.stringify(list.body)]) {
      assert.ok(!text.includes(clientSecret) && !text.includes(row.secretHash as string) && !/secret/i.test(text), 'never the secret or its hash');
    }
  });

  it('when a public application is registered, then it has no secret; client_credentials for it is refused, at creation and by a change', async () => {
    const res = await create({ ...valid, public: true, redirectUris: ['com.example.wiki:/callback', 'http://127.0.0.1:8123/cb', 'http://[::1]/cb'] });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.clientSecret, undefined);
    assert.equal(res.body.client.public, true);

    const refused = await create({ ...valid, public: true, grantTypes: ['client_credentials'] });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.errors.grantTypes, 'client_credentials needs a confidential client');
    const changed = await request(ctx().app).patch(`/api/oauth-clients/${res.body.client.clientId}`).set(auth).send({ grantTypes: ['authorization_code', 'client_credentials'] });
    assert.equal(changed.status, 400);
    assert.equal(changed.body.errors.grantTypes, 'client_credentials needs a confidential client');
    const secret = await request(ctx().app).post(`/api/oauth-clients/${res.body.client.clientId}/secret`).set(auth);
    assert.equal(secret.status, 400);
    assert.equal(secret.body.error, 'A public client has no secret');
  });

  it('when a redirect URI breaks the rule, then 400 names the field and why, and no row is written', async () => {
    const before = await ctx().models.OAuthClient.count();
    const cases: Array<[string, RegExp]> = [
      ['/callback', /absolute/],
      ['https://wiki.example.test/cb#frag', /fragment/],
      ['https://*.example.test/cb', /wildcard/],
      ['http://wiki.example.test/cb', /loopback/],
      ['javascript:alert(1)', /private-use scheme/],
      ['', /required/],
    ];
    for (const [uri, message] of cases) {
      const res = await create({ ...valid, redirectUris: ['https://ok.example.test/cb', uri] });
      assert.equal(res.status, 400, uri);
      assert.equal(res.body.error, 'Validation failed');
      assert.match(res.body.errors['redirectUris.1'], message, `${uri}: ${JSON.stringify(res.body.errors)}`);
    }
    const logout = await create({ ...valid, postLogoutRedirectUris: ['http://example.test/'] });
    assert.equal(logout.status, 400);
    assert.match(logout.body.errors['postLogoutRedirectUris.0'], /loopback/);
    assert.equal(await ctx().models.OAuthClient.count(), before);
  });

  it('when the body has unknown fields, a missing name, no redirect URI or an unknown scope, then 400 with every field named', async () => {
    const res = await create({ redirectUris: [], clientSecret: 'mine', allowedScopes: ['openid', 'admin'], grantTypes: ['implicit'] });
    assert.equal(res.status, 400);
    assert.equal(res.body.errors.name, 'is required');
    assert.equal(res.body.errors.clientSecret, 'unknown field');
    assert.match(res.body.errors.redirectUris, /at least 1/);
    assert.match(res.body.errors['allowedScopes.1'], /one of/);
    assert.match(res.body.errors['grantTypes.0'], /one of/);
    const repeated = await create({ ...valid, allowedScopes: ['openid', 'openid'] });
    assert.equal(repeated.body.errors.allowedScopes, 'must not repeat a value');
    const publicChange = await request(ctx().app).patch('/api/oauth-clients/anything').set(auth).send({ public: true });
    assert.equal(publicChange.status, 400);
    assert.equal(publicChange.body.errors.public, 'unknown field');
    const empty = await request(ctx().app).patch('/api/oauth-clients/anything').set(auth).send({});
    assert.equal(empty.status, 400);
    assert.equal(empty.body.errors._, 'name at least one field to change');
  });

  it('when an application is changed, then only the sent fields change and oauth_client.updated names them; an unknown id is 404', async () => {
    const { client } = (await create(valid)).body;
    const res = await request(ctx().app).patch(`/api/oauth-clients/${client.clientId}`).set(auth).send({ name: 'Wiki', firstParty: true, redirectUris: ['https://wiki.example.test/cb2'] });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.client.name, 'Wiki');
    assert.equal(res.body.client.firstParty, true);
    assert.deepEqual(res.body.client.redirectUris, ['https://wiki.example.test/cb2']);
    assert.deepEqual(res.body.client.allowedScopes, client.allowedScopes, 'kept');
    const row = await ctx().models.OAuthClient.findByPk(client.clientId, { rejectOnEmpty: true });
    assert.equal(row.name, 'Wiki');
    assert.deepEqual(row.grantTypes, client.grantTypes);
    const [logged] = await activity('oauth_client.updated', client.clientId);
    assert.deepEqual(((logged.details as Record<string, unknown>).fields as string[]).sort(), ['firstParty', 'name', 'redirectUris']);

    for (const path of ['/api/oauth-clients/nope', '/api/oauth-clients/nope/secret']) {
      const method = path.endsWith('secret') ? 'post' : 'get';
      assert.equal((await request(ctx().app)[method](path).set(auth)).status, 404, path);
    }
    assert.equal((await request(ctx().app).patch('/api/oauth-clients/nope').set(auth).send({ name: 'x' })).status, 404);
    assert.equal((await request(ctx().app).delete('/api/oauth-clients/nope').set(auth)).status, 404);
    const malformed = await request(ctx().app).get('/api/oauth-clients/not%20an%20id').set(auth);
    assert.equal(malformed.status, 400);
    assert.equal(malformed.body.errors.id, 'must be an application id');
  });

  it('when a new secret is made, then it is shown once and the old one no longer matches the stored hash', async () => {
    const { client, clientSecret } = (await create(valid)).body;
    const res = await request(ctx().app).post(`/api/oauth-clients/${client.clientId}/secret`).set(auth);
    assert.equal(res.status, 200);
    assert.notEqual(res.body.clientSecret, clientSecret);
    const row = await ctx().models.OAuthClient.findByPk(client.clientId, { rejectOnEmpty: true });
    assert.equal(row.secretHash, hashClientSecret(res.body.clientSecret));
    assert.deepEqual(Object.keys(res.body).sort(), ['client', 'clientSecret']);
  });

  it('when an application is removed, then its grants, consents and stored tokens go with it, other applications\' stay, and oauth_client.deleted is logged', async () => {
    const { models } = ctx();
    const user = await createTestUser();
    const gone = (await create(valid)).body.client.clientId as string;
    const kept = (await create(valid)).body.client.clientId as string;
    const grantOf: Record<string, string> = {};
    for (const clientId of [gone, kept]) {
      const grantId = crypto.randomUUID();
      grantOf[clientId] = grantId;
      await models.OidcGrant.create({ grantId, userId: user.id, clientId, sessionId: crypto.randomUUID() });
      await models.OAuthConsent.create({ userId: user.id, clientId, scope: 'openid' });
      await models.OidcPayload.create({ model: 'Grant', id: grantId, payload: '{}', grantId: null, uid: null, userCode: null, expiresAt: null, consumedAt: null } as never);
      await models.OidcPayload.create({ model: 'RefreshToken', id: `rt-${grantId}`, payload: '{}', grantId, uid: null, userCode: null, expiresAt: null, consumedAt: null } as never);
    }
    const res = await request(ctx().app).delete(`/api/oauth-clients/${gone}`).set(auth);
    assert.equal(res.status, 204);
    assert.equal(await models.OAuthClient.findByPk(gone), null);
    assert.equal(await models.OidcGrant.count({ where: { clientId: gone } }), 0);
    assert.equal(await models.OAuthConsent.count({ where: { clientId: gone } }), 0);
    assert.equal(await models.OidcPayload.count({ where: { [Op.or]: [{ grantId: grantOf[gone] }, { id: grantOf[gone] }] } }), 0, 'its grant and tokens ended');
    assert.equal(await models.OidcPayload.count({ where: { [Op.or]: [{ grantId: grantOf[kept] }, { id: grantOf[kept] }] } }), 2, 'the other application\'s grant and token stay');
    assert.equal((await activity('oauth_client.deleted', gone)).length, 1);
    assert.equal((await request(ctx().app).get(`/api/oauth-clients/${gone}`).set(auth)).status, 404);
  });

  it('when the caller lacks manage:settings, then 403 on every route; signed out, 401', async () => {
    const { token } = await createUserWithToken('editor');
    const editor = { Authorization: `Bearer ${token}` };
    const calls = [
      request(ctx().app).get('/api/oauth-clients').set(editor),
      request(ctx().app).get('/api/oauth-clients/x').set(editor),
      request(ctx().app).post('/api/oauth-clients').set(editor).send(valid),
      request(ctx().app).patch('/api/oauth-clients/x').set(editor).send({ name: 'y' }),
      request(ctx().app).delete('/api/oauth-clients/x').set(editor),
      request(ctx().app).post('/api/oauth-clients/x/secret').set(editor),
    ];
    for (const res of await Promise.all(calls)) assert.equal(res.status, 403, JSON.stringify(res.body));
    assert.equal((await request(ctx().app).get('/api/oauth-clients')).status, 401);
    assert.equal((await request(ctx().app).post('/api/oauth-clients').send(valid)).status, 401);
  });

  it('when the admin signed in longer ago than the step-up age, then reading works but every change answers 403 stepUp and writes nothing', async () => {
    const { client } = (await create(valid)).body;
    const admin = await createTestUser('admin');
    const stale = { Authorization: `Bearer ${await tokenFor(admin, { sid: crypto.randomUUID(), authTime: Math.floor(Date.now() / 1000) - 3600 })}` };
    assert.equal((await request(ctx().app).get('/api/oauth-clients').set(stale)).status, 200);
    assert.equal((await request(ctx().app).get(`/api/oauth-clients/${client.clientId}`).set(stale)).status, 200);
    const before = await ctx().models.OAuthClient.count();
    const calls = [
      request(ctx().app).post('/api/oauth-clients').set(stale).send(valid),
      request(ctx().app).patch(`/api/oauth-clients/${client.clientId}`).set(stale).send({ name: 'Changed' }),
      request(ctx().app).delete(`/api/oauth-clients/${client.clientId}`).set(stale),
      request(ctx().app).post(`/api/oauth-clients/${client.clientId}/secret`).set(stale),
    ];
    for (const res of await Promise.all(calls)) {
      assert.equal(res.status, 403, JSON.stringify(res.body));
      assert.deepEqual(res.body, { error: 'Recent sign-in required', stepUp: true });
    }
    assert.equal(await ctx().models.OAuthClient.count(), before);
    const row = await ctx().models.OAuthClient.findByPk(client.clientId, { rejectOnEmpty: true });
    assert.equal(row.name, valid.name);
  });
});
