import assert from 'node:assert/strict';
import { makeUser } from '../../support/auth';
import { authorizeThroughPages, CookieBrowser, generators, listeningProvider, registerClient, relyingParty } from '../../support/oidc-relying-party';

/** CONTRACT 14, proven from outside: openid-client as the relying party against a listening service. */
describe('OpenID Provider (CONTRACT 14)', function () {
  this.timeout(60_000);
  let provider: Awaited<ReturnType<typeof listeningProvider>>;
  const redirectUri = 'http://127.0.0.1:9/cb';

  before(async () => {
    provider = await listeningProvider();
  });
  after(() => provider.close());

  const authorize = (browser: CookieBrowser, client: Awaited<ReturnType<typeof relyingParty>>, email: string, params: Record<string, string> = {}) =>
    authorizeThroughPages(browser, provider.base, client, redirectUri, email, params);

  it('when discovery is read, then openid-client accepts it and it names every endpoint and rule of the contract', async () => {
    const res = await fetch(`${provider.base}/.well-known/openid-configuration`);
    const doc = (await res.json()) as Record<string, unknown>;
    assert.equal(doc.issuer, provider.base);
    for (const field of ['authorization_endpoint', 'token_endpoint', 'userinfo_endpoint', 'jwks_uri', 'end_session_endpoint', 'revocation_endpoint', 'introspection_endpoint']) {
      assert.equal(typeof doc[field], 'string', field);
      assert.ok((doc[field] as string).startsWith(provider.base), field);
    }
    assert.deepEqual(doc.response_types_supported, ['code']);
    assert.deepEqual(doc.code_challenge_methods_supported, ['S256']);
    assert.deepEqual(doc.subject_types_supported, ['public']);
    // RS256 only: the provider's ES256 key signs access tokens, never ID tokens (OpenID Connect Core 15.1).
    assert.deepEqual(doc.id_token_signing_alg_values_supported, ['RS256']);
    for (const scope of ['openid', 'profile', 'email', 'offline_access']) assert.ok((doc.scopes_supported as string[]).includes(scope), scope);
    for (const grant of ['authorization_code', 'refresh_token', 'client_credentials']) assert.ok((doc.grant_types_supported as string[]).includes(grant), grant);
    for (const method of ['client_secret_basic', 'client_secret_post', 'none']) assert.ok((doc.token_endpoint_auth_methods_supported as string[]).includes(method), method);
  });

  it('when a user signs in through the page and allows, then the code + PKCE exchange gives a valid ID token, userinfo and a refresh; the second time no consent is asked', async () => {
    const user = await makeUser();
    const registered = await registerClient({ redirectUri });
    const client = await relyingParty(provider.base, { ...registered, redirectUri });
    const browser = new CookieBrowser();

    // OpenID Connect Core 11: offline_access is honoured only with prompt=consent.
    const first = await authorize(browser, client, user.email, { prompt: 'consent' });
    assert.equal(first.consentShown, true);
    const params = client.callbackParams(first.callbackUrl);
    assert.equal(params.state, first.state);
    const tokens = await client.callback(redirectUri, params, { code_verifier: first.verifier, state: first.state, nonce: first.nonce });
    const claims = tokens.claims();
    assert.equal(claims.sub, user.id);
    assert.equal(claims.aud, registered.clientId);
    assert.equal(claims.nonce, first.nonce);
    assert.equal(claims.email, user.email);
    assert.equal(claims.given_name, user.firstName ?? undefined);
    assert.equal(claims.sid !== undefined, true, 'sid: the sign-in session');
    assert.equal(typeof claims.auth_time, 'number');
    assert.deepEqual(claims.amr, ['pwd']);
    assert.ok((claims.exp as number) - (claims.iat as number) <= 3600);

    const info = await client.userinfo(tokens.access_token as string);
    assert.equal(info.sub, user.id);
    assert.equal(info.email, user.email);

    assert.ok(tokens.refresh_token, 'offline_access gives a refresh token');
    const renewed = await client.refresh(tokens.refresh_token as string);
    assert.ok(renewed.access_token);
    assert.notEqual(renewed.refresh_token, tokens.refresh_token, 'rotated at every use');

    const second = await authorize(browser, client, user.email);
    assert.equal(second.consentShown, false, 'consent remembered per user and client');
  });

  it('when the user signs out everywhere, then the application\'s refresh token and userinfo are refused (its grant ended with the session)', async () => {
    const user = await makeUser();
    const registered = await registerClient({ redirectUri });
    const client = await relyingParty(provider.base, { ...registered, redirectUri });
    const browser = new CookieBrowser();
    const run = await authorize(browser, client, user.email, { prompt: 'consent' });
    const tokens = await client.callback(redirectUri, client.callbackParams(run.callbackUrl), { code_verifier: run.verifier, state: run.state, nonce: run.nonce });

    const csrf = browser.jar.get('csrf_token') as string;
    const out = await fetch(`${provider.base}/auth/logout-all`, { method: 'POST', headers: { cookie: [...browser.jar].map(([n, v]) => `${n}=${v}`).join('; '), 'x-csrf-token': csrf } });
    assert.equal(out.status, 200, await out.text());

    await assert.rejects(client.refresh(tokens.refresh_token as string), /invalid_grant/);
    await assert.rejects(client.userinfo(tokens.access_token as string), /invalid_token/);
  });

  it('when the application asks with plain PKCE or none, then it is refused', async () => {
    const registered = await registerClient({ redirectUri });
    const client = await relyingParty(provider.base, { ...registered, redirectUri });
    for (const extra of [{ code_challenge: 'x'.repeat(43), code_challenge_method: 'plain' }, {}]) {
      const res = await fetch(client.authorizationUrl({ scope: 'openid', state: 's', ...extra }), { redirect: 'manual' });
      const location = new URL(res.headers.get('location') as string);
      assert.equal(location.searchParams.get('error'), 'invalid_request');
    }
  });

  it('when the redirect_uri is not registered, then the service answers its own 400 page and never redirects', async () => {
    const registered = await registerClient({ redirectUri });
    const client = await relyingParty(provider.base, { ...registered, redirectUri });
    const url = client.authorizationUrl({ scope: 'openid', redirect_uri: 'https://evil.example/cb', code_challenge: generators.codeChallenge(generators.codeVerifier()), code_challenge_method: 'S256' });
    const res = await fetch(url, { redirect: 'manual' });
    assert.equal(res.status, 400);
    assert.equal(res.headers.get('location'), null);
    assert.match(await res.text(), /Sign-in request refused/);
  });
});
