import assert from 'node:assert/strict';
import request from 'supertest';
import { ctx } from '../support/context';
import { makeUser, tokenFor } from '../support/auth';
import { connectThroughPages, listeningProvider, registerClient, relyingParty } from '../support/oidc-relying-party';

/** CONTRACT 14: GET /auth/connected-apps and DELETE /auth/connected-apps/:clientId, with openid-client as the application. */
describe('connected applications (/auth/connected-apps)', function () {
  this.timeout(60_000);
  let provider: Awaited<ReturnType<typeof listeningProvider>>;
  const redirectUri = 'http://127.0.0.1:9/cb';

  before(async () => {
    provider = await listeningProvider();
  });
  after(() => provider.close());

  it('when a user allowed two applications and takes one back, then the list shows both, then one; that one\'s tokens end, the other\'s work, and oauth.consent_revoked is logged', async () => {
    const user = await makeUser();
    const wiki = await registerClient({ redirectUri });
    const tracker = await registerClient({ redirectUri });
    const wikiClient = await relyingParty(provider.base, { ...wiki, redirectUri });
    const trackerClient = await relyingParty(provider.base, { ...tracker, redirectUri });
    const wikiTokens = await connectThroughPages(provider.base, wikiClient, { email: user.email, redirectUri });
    const trackerTokens = await connectThroughPages(provider.base, trackerClient, { email: user.email, redirectUri });
    const auth = { Authorization: `Bearer ${await tokenFor(user)}` };

    const listed = await request(ctx().app).get('/auth/connected-apps').set(auth);
    assert.equal(listed.status, 200);
    assert.deepEqual(listed.body.apps.map((app: { clientId: string }) => app.clientId).sort(), [wiki.clientId, tracker.clientId].sort());
    const shown = listed.body.apps.find((app: { clientId: string }) => app.clientId === wiki.clientId);
    assert.equal(shown.name, 'Sample wiki');
    assert.deepEqual(shown.scopes.sort(), ['email', 'offline_access', 'openid', 'profile']);
    assert.ok(!Number.isNaN(Date.parse(shown.grantedAt)));

    const revoked = await request(ctx().app).delete(`/auth/connected-apps/${wiki.clientId}`).set(auth);
    assert.equal(revoked.status, 204);
    const after = await request(ctx().app).get('/auth/connected-apps').set(auth);
    assert.deepEqual(after.body.apps.map((app: { clientId: string }) => app.clientId), [tracker.clientId]);

    await assert.rejects(wikiClient.refresh(wikiTokens.refresh_token as string), /invalid_grant/);
    await assert.rejects(wikiClient.userinfo(wikiTokens.access_token as string), /invalid_token/);
    assert.equal((await trackerClient.userinfo(trackerTokens.access_token as string)).sub, user.id);
    assert.ok((await trackerClient.refresh(trackerTokens.refresh_token as string)).access_token);

    const logged = await ctx().models.ActivityLog.findOne({ where: { action: 'oauth.consent_revoked', userId: user.id } });
    assert.equal((logged?.details as Record<string, unknown>).clientId, wiki.clientId);
  });

  it('when a first-party application signed the user in (no consent asked), then it is listed with the scopes of its grant, and removing it ends its tokens', async () => {
    const user = await makeUser();
    const intranet = await registerClient({ redirectUri, firstParty: true });
    const client = await relyingParty(provider.base, { ...intranet, redirectUri });
    const tokens = await connectThroughPages(provider.base, client, { email: user.email, redirectUri });
    assert.equal(await ctx().models.OAuthConsent.count({ where: { userId: user.id } }), 0, 'no consent was asked');
    const auth = { Authorization: `Bearer ${await tokenFor(user)}` };

    const listed = await request(ctx().app).get('/auth/connected-apps').set(auth);
    assert.equal(listed.body.apps.length, 1);
    assert.equal(listed.body.apps[0].clientId, intranet.clientId);
    assert.ok(listed.body.apps[0].scopes.includes('openid'), JSON.stringify(listed.body.apps[0]));

    assert.equal((await request(ctx().app).delete(`/auth/connected-apps/${intranet.clientId}`).set(auth)).status, 204);
    assert.deepEqual((await request(ctx().app).get('/auth/connected-apps').set(auth)).body, { apps: [] });
    await assert.rejects(client.userinfo(tokens.access_token as string), /invalid_token/);
    assert.equal((await request(ctx().app).delete(`/auth/connected-apps/${intranet.clientId}`).set(auth)).status, 404, 'nothing left to remove');
  });

  it('when the application is not one the user connected (or another user\'s), then 404, and nothing of the other user changes', async () => {
    const owner = await makeUser();
    const stranger = await makeUser();
    const wiki = await registerClient({ redirectUri });
    await ctx().models.OAuthConsent.create({ userId: owner.id, clientId: wiki.clientId, scope: 'openid' });
    const strangerAuth = { Authorization: `Bearer ${await tokenFor(stranger)}` };
    assert.deepEqual((await request(ctx().app).get('/auth/connected-apps').set(strangerAuth)).body, { apps: [] });
    const res = await request(ctx().app).delete(`/auth/connected-apps/${wiki.clientId}`).set(strangerAuth);
    assert.equal(res.status, 404);
    assert.equal(await ctx().models.OAuthConsent.count({ where: { userId: owner.id } }), 1);
    assert.equal((await request(ctx().app).delete('/auth/connected-apps/bad%20id').set(strangerAuth)).status, 400);
    assert.equal((await request(ctx().app).get('/auth/connected-apps')).status, 401);
  });
});
