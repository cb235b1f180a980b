import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { makeUser } from '../../support/auth';
import { bearer, signIn, twoInstances } from '../../support/two-instances';
import { authorizeThroughPages, CookieBrowser, redeem, registerClient, relyingParty } from '../../support/oidc-relying-party';

/**
 * CONTRACT 14 across instances: one public address (BASE_URL, the issuer) in front of two instances sharing the
 * database and Redis; the front sends each request to the instance the test names, as a load balancer might.
 */
describe('OpenID Provider on two instances (CONTRACT 14)', function () {
  this.timeout(60_000);
  const env: Record<string, string> = {};
  let front: http.Server;
  let base = '';
  /** Where requests go, but the authorization request itself, which always reaches the first instance. */
  let current: 'first' | 'second' = 'second';
  const served = { first: 0, second: 0 };
  const redirectUri = 'http://127.0.0.1:9/cb';

  // Registered before twoInstances' own hook: its apps are built with this BASE_URL.
  before(async () => {
    front = http.createServer((req, res) => {
      const which = req.url?.startsWith('/oidc/auth?') ? 'first' : current;
      served[which]++;
      instances[which](req, res);
    });
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
    env.BASE_URL = base;
  });
  const instances = twoInstances({ env });
  after(() => new Promise<void>((resolve) => front.close(() => resolve())));

  it('when the authorization starts on one instance, then sign-in, consent and the code redemption finish on the other, and a refresh works back on the first', async () => {
    const user = await makeUser();
    const registered = await registerClient({ redirectUri });
    current = 'second';
    const client = await relyingParty(base, { ...registered, redirectUri });
    const browser = new CookieBrowser();
    const before = { ...served };
    const run = await authorizeThroughPages(browser, base, client, redirectUri, user.email, { prompt: 'consent' });
    assert.equal(served.first - before.first, 1, 'the authorization request reached the first instance');
    assert.ok(served.second - before.second >= 3, 'the sign-in and consent were served by the second');

    const tokens = await redeem(client, redirectUri, run);
    assert.equal(tokens.claims().sub, user.id);
    assert.equal((await client.userinfo(tokens.access_token as string)).sub, user.id);

    current = 'first';
    const renewed = await client.refresh(tokens.refresh_token as string);
    assert.ok(renewed.access_token);
    assert.equal((await client.introspect(renewed.access_token as string)).active, true);
    // The superseded refresh token, presented to the other instance, is reuse there too.
    current = 'second';
    await assert.rejects(client.refresh(tokens.refresh_token as string), /invalid_grant/);
    assert.equal((await client.introspect(renewed.access_token as string)).active, false);
  });

  it('when the provider keys are rotated on one instance, then the other signs new ID and access tokens with the new keys at once, and accepts tokens of the old', async () => {
    const kidOf = (token: string) => (JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString('utf8')) as { kid: string }).kid;
    const user = await makeUser();
    const registered = await registerClient({ redirectUri });
    current = 'second';
    const client = await relyingParty(base, { ...registered, redirectUri });
    const run = await authorizeThroughPages(new CookieBrowser(), base, client, redirectUri, user.email, { prompt: 'consent' });
    const tokens = await redeem(client, redirectUri, run);

    const admin = await signIn(instances.first, (await makeUser({ role: 'admin' })).email);
    const rotated = await request(instances.first).post('/api/settings/keys/rotate').set(bearer(admin));
    assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
    const newKid = Object.fromEntries((rotated.body.providerKeys as Array<{ algorithm: string; kid: string }>).map((key) => [key.algorithm, key.kid]));

    // The second instance built its provider with the old keys (it redeemed the code): it signs with the new ones now.
    const renewed = await (await relyingParty(base, { ...registered, redirectUri })).refresh(tokens.refresh_token as string);
    assert.equal(kidOf(renewed.id_token as string), newKid.RS256);
    assert.equal(kidOf(renewed.access_token as string), newKid.ES256);
    assert.equal((await client.userinfo(tokens.access_token as string)).sub, user.id, 'the old access token still answers on the other instance');
    const published = ((await request(instances.second).get('/.well-known/jwks.json')).body.keys as Array<{ kid: string }>).map((key) => key.kid);
    for (const kid of [kidOf(tokens.id_token as string), kidOf(tokens.access_token as string), newKid.RS256, newKid.ES256]) assert.ok(published.includes(kid), kid);
  });
});
