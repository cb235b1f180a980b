import assert from 'node:assert/strict';
import * as jose from 'jose';
import { Op } from 'sequelize';
import { makeUser, PASSWORD } from '../../support/auth';
import { ctx } from '../../support/context';
import { createProviderKeys } from '../../../src/services/oidc-provider/provider-keys';
import { REPLACED_KEY_LIFETIME_SECONDS } from '../../../src/services/oidc-provider/provider-lifetimes';
import { standaloneKeyRotation } from '../../../src/services/security/signing-key-start';
import { authorizeThroughPages, CookieBrowser, listeningProvider, redeem, registerClient, relyingParty } from '../../support/oidc-relying-party';

const kidOf = (token: string) => (JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString('utf8')) as { kid: string }).kid;

interface ListedKey {
  kid: string;
  algorithm: string;
  signing: boolean;
  signs: string;
  retiresAt: string | null;
}

/** CONTRACT 11 and 14: the OpenID Provider's keys rotate with the service's, under every JWT_ALGORITHM (HS256 here, the default). */
describe('OpenID Provider key rotation (CONTRACT 11, 14)', function () {
  this.timeout(60_000);
  let provider: Awaited<ReturnType<typeof listeningProvider>>;
  const redirectUri = 'http://127.0.0.1:9/cb';

  before(async () => {
    provider = await listeningProvider();
  });
  after(() => provider.close());

  /** An admin signed in on this listening service (its issuer is its own port), just now: step-up is satisfied. */
  async function signedInAdmin(): Promise<string> {
    const { email } = await makeUser({ role: 'admin' });
    const login = await fetch(`${provider.base}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: PASSWORD }) });
    assert.equal(login.status, 200);
    return ((await login.json()) as { token: string }).token;
  }

  const api = (path: string, token: string, method = 'GET') => fetch(`${provider.base}${path}`, { method, headers: { Authorization: `Bearer ${token}` } });
  const jwks = async () => (await (await fetch(`${provider.base}/.well-known/jwks.json`)).json()) as jose.JSONWebKeySet;

  /** An application the user has connected, and its tokens (offline access, so a refresh gives new ones). */
  async function connected() {
    const user = await makeUser();
    const registered = await registerClient({ redirectUri });
    const client = await relyingParty(provider.base, { ...registered, redirectUri });
    const run = await authorizeThroughPages(new CookieBrowser(), provider.base, client, redirectUri, user.email, { prompt: 'consent' });
    return { user, registered, client, tokens: await redeem(client, redirectUri, run) };
  }

  it('when the admin rotates under HS256, then new ID and access tokens carry the new kids, tokens of the old keys keep working and verify from the JWKS, and the list shows both', async () => {
    const { user, registered, client, tokens } = await connected();
    const admin = await signedInAdmin();

    const rotated = await api('/api/settings/keys/rotate', admin, 'POST');
    assert.equal(rotated.status, 200);
    const body = (await rotated.json()) as { key: null; providerKeys: ListedKey[]; message: string };
    assert.equal(body.key, null, 'HS256: the service signs with JWT_SECRET, no key of its own to rotate');
    assert.match(body.message, /OpenID Provider/);
    assert.match(body.message, /HS256/);
    const newKid = Object.fromEntries(body.providerKeys.map((key) => [key.algorithm, key.kid]));
    assert.notEqual(newKid.RS256, kidOf(tokens.id_token as string));
    assert.notEqual(newKid.ES256, kidOf(tokens.access_token as string));

    // An application that fetched the JWKS before the rotation meets an unknown kid and fetches it again
    // (openid-client does so at most once a minute): a fresh client here, as after that minute.
    const renewed = await (await relyingParty(provider.base, { ...registered, redirectUri })).refresh(tokens.refresh_token as string);
    assert.equal(kidOf(renewed.id_token as string), newKid.RS256, 'ID tokens are signed with the new RS256 key');
    assert.equal(kidOf(renewed.access_token as string), newKid.ES256, 'access tokens are signed with the new ES256 key');
    assert.equal(renewed.claims().sub, user.id);

    assert.equal((await client.userinfo(tokens.access_token as string)).sub, user.id, 'the old access token still answers');
    assert.equal((await client.introspect(tokens.access_token as string)).active, true);
    assert.equal((await client.userinfo(renewed.access_token as string)).sub, user.id);

    const keySet = jose.createLocalJWKSet(await jwks());
    for (const token of [tokens.id_token, tokens.access_token, renewed.id_token, renewed.access_token] as string[]) {
      const { payload } = await jose.jwtVerify(token, keySet, { issuer: provider.base });
      assert.equal(payload.sub, user.id);
    }

    const listed = (await (await api('/api/settings/keys', admin)).json()) as { keys: ListedKey[] };
    const byKid = new Map(listed.keys.map((key) => [key.kid, key]));
    assert.equal(byKid.get(newKid.RS256)?.signing, true);
    assert.equal(byKid.get(newKid.RS256)?.signs, 'oidc-id-tokens');
    assert.equal(byKid.get(newKid.ES256)?.signs, 'oidc-access-tokens');
    const old = byKid.get(kidOf(tokens.access_token as string));
    assert.equal(old?.signing, false);
    const expected = Date.now() + REPLACED_KEY_LIFETIME_SECONDS * 1000;
    assert.ok(Math.abs(Date.parse(old?.retiresAt as string) - expected) < 10_000, 'retires after its last token is past exp + grace');
    assert.ok(REPLACED_KEY_LIFETIME_SECONDS > 3600, 'longer than the ID and access tokens live');
    assert.equal(listed.keys.filter((key) => key.signing && key.signs !== 'tokens').length, 2, 'one signing key per algorithm');
  });

  it('when an ID token of a replaced key is the logout hint, then the provider still verifies it (the key is verify-only) and the browser goes back with state', async () => {
    const postLogout = 'http://127.0.0.1:9/signed-out';
    const user = await makeUser();
    const registered = await registerClient({ redirectUri, postLogoutRedirectUri: postLogout });
    const client = await relyingParty(provider.base, { ...registered, redirectUri });
    const browser = new CookieBrowser();
    const tokens = await redeem(client, redirectUri, await authorizeThroughPages(browser, provider.base, client, redirectUri, user.email, { prompt: 'consent' }));
    assert.equal((await api('/api/settings/keys/rotate', await signedInAdmin(), 'POST')).status, 200);

    const res = await browser.request(client.endSessionUrl({ id_token_hint: tokens.id_token as string, post_logout_redirect_uri: postLogout, state: 'bye-old-key' }));
    assert.equal(res.status, 303);
    assert.equal(new URL(res.headers.get('location') as string).searchParams.get('state'), 'bye-old-key');
  });

  it('when a replaced key is past its retirement, then it leaves the JWKS and its tokens stop working, while the new keys go on', async () => {
    const { user, registered, tokens } = await connected();
    const admin = await signedInAdmin();
    assert.equal((await api('/api/settings/keys/rotate', admin, 'POST')).status, 200);
    const client = await relyingParty(provider.base, { ...registered, redirectUri });
    const renewed = await client.refresh(tokens.refresh_token as string);
    const oldKids = [kidOf(tokens.id_token as string), kidOf(tokens.access_token as string)];

    // As the signing-key tests do: the retirement moved into the past, and the store's version with it (the
    // passing of that time does the same: each instance's copy is good only until the first retirement).
    await ctx().models.OidcPayload.update({ expiresAt: new Date(Date.now() - 1000) }, { where: { model: 'ProviderKey', id: { [Op.in]: oldKids } } });
    await ctx().store.clear();

    const published = (await jwks()).keys.map((key) => key.kid);
    assert.ok(oldKids.every((kid) => !published.includes(kid)), 'the old keys left the JWKS');
    await assert.rejects(client.userinfo(tokens.access_token as string), /invalid_token/);
    assert.equal((await client.introspect(tokens.access_token as string)).active, false);
    assert.equal((await client.userinfo(renewed.access_token as string)).sub, user.id);
  });

  it('when two instances rotate at the same moment, then one rotation wins, both answer its keys, and one key per algorithm signs', async () => {
    const keysOf = () => createProviderKeys({ models: ctx().models, store: ctx().store, jwtSecret: ctx().config.jwtSecret, logger: ctx().logger });
    const [first, second] = [keysOf(), keysOf()];
    const before = (await first.current()).views.length;
    const results = await Promise.all([first.rotate(), second.rotate()]);
    assert.deepEqual(results.map((result) => result.rotated).sort(), [false, true]);
    assert.equal(results[0].set.id, results[1].set.id, 'both answer the winner’s keys');
    const signingRows = await ctx().models.OidcPayload.findAll({ where: { model: 'ProviderKey', expiresAt: null } });
    assert.equal(signingRows.length, 2);
    const after = await keysOf().current();
    assert.equal(after.views.length, before + 2, 'only the winner replaced the keys');
    assert.deepEqual(after.views.filter((view) => view.signing).map((view) => view.algorithm).sort(), ['ES256', 'RS256']);
  });

  it('when `npm run keys:rotate` runs under HS256, then it rotates the provider’s keys and says so', async () => {
    const { config, sequelize, models, store, logger } = ctx();
    const kids = (await createProviderKeys({ models, store, jwtSecret: config.jwtSecret, logger }).current()).views.filter((view) => view.signing).map((view) => view.kid);
    const rotation = await (await standaloneKeyRotation({ config, sequelize, models, store, logger })).rotate();
    assert.equal(rotation.key, null);
    assert.match(rotation.message, /JWT_SECRET/);
    assert.equal(rotation.providerKeys.length, 2);
    assert.ok(rotation.providerKeys.every((key) => !kids.includes(key.kid)));
    const published = (await jwks()).keys.map((key) => key.kid);
    assert.ok([...kids, ...rotation.providerKeys.map((key) => key.kid)].every((kid) => published.includes(kid)), 'this instance publishes the new keys at once, the old still');
  });
});
