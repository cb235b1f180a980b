import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import type { Client, TokenSet } from 'openid-client';
import { makeUser, PASSWORD } from '../../support/auth';
import { ctx } from '../../support/context';
import { createProviderKeys } from '../../../src/services/oidc-provider/provider-keys';
import { authorizeThroughPages, CookieBrowser, generators, listeningProvider, redeem, registerClient, relyingParty } from '../../support/oidc-relying-party';

const decode = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;

/** CONTRACT 14's flows, from outside: openid-client as the application, the service listening on loopback. */
describe('OpenID Provider flows (CONTRACT 14)', function () {
  this.timeout(60_000);
  let provider: Awaited<ReturnType<typeof listeningProvider>>;
  const redirectUri = 'http://127.0.0.1:9/cb';

  before(async () => {
    provider = await listeningProvider();
  });
  after(() => provider.close());

  /** A confidential application, openid-client's view of it, and a user signed in to it through the pages. */
  async function signedInApplication(params: Record<string, string> = { prompt: 'consent' }) {
    const user = await makeUser();
    const registered = await registerClient({ redirectUri });
    const client = await relyingParty(provider.base, { ...registered, redirectUri });
    const browser = new CookieBrowser();
    const run = await authorizeThroughPages(browser, provider.base, client, redirectUri, user.email, params);
    return { user, registered, client, browser, run };
  }

  /** The browser's cookies and CSRF header, for the service's own signed-in endpoints. */
  function asBrowser(browser: CookieBrowser): Record<string, string> {
    return { cookie: [...browser.jar].map(([name, value]) => `${name}=${value}`).join('; '), 'x-csrf-token': browser.jar.get('csrf_token') as string };
  }

  /** Whether the token still works anywhere: introspection says active and userinfo answers. */
  async function assertEnded(client: Client, tokens: TokenSet) {
    assert.equal((await client.introspect(tokens.access_token as string)).active, false, 'access token inactive');
    await assert.rejects(client.userinfo(tokens.access_token as string), /invalid_token/);
    if (tokens.refresh_token) {
      assert.equal((await client.introspect(tokens.refresh_token)).active, false, 'refresh token inactive');
      await assert.rejects(client.refresh(tokens.refresh_token), /invalid_grant/);
    }
  }

  /** A sign-in of the user on another device, by the JSON API: its access token. */
  async function otherDevice(email: string): Promise<string> {
    const login = await fetch(`${provider.base}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: PASSWORD }) });
    assert.equal(login.status, 200);
    return ((await login.json()) as { token: string }).token;
  }

  async function reuseRecorded(userId: string) {
    return ctx().models.ActivityLog.count({ where: { action: 'oauth.token_reuse_detected', userId } });
  }

  describe('access tokens', () => {
    it('when a code is redeemed, then the access token is an ES256 RFC 9068 JWT and the ID token RS256, both verifiable from the JWKS, and userinfo and introspection answer it', async () => {
      const { user, registered, client, run } = await signedInApplication();
      const tokens = await redeem(client, redirectUri, run);
      const jwks = (await (await fetch(`${provider.base}/.well-known/jwks.json`)).json()) as { keys: (crypto.JsonWebKey & { kid: string; alg: string })[] };
      /** The token's header, after checking its signature with the JWKS key its kid names. */
      const verified = (token: string) => {
        const [header, payload, signature] = token.split('.');
        const head = decode(header);
        const jwk = jwks.keys.find((key) => key.kid === head.kid);
        assert.ok(jwk, 'the signing key is in the JWKS');
        assert.equal(jwk.alg, head.alg, "the JWKS names the key's algorithm");
        const key = { key: crypto.createPublicKey({ key: jwk, format: 'jwk' }), dsaEncoding: 'ieee-p1363' as const };
        assert.equal(crypto.verify('sha256', Buffer.from(`${header}.${payload}`), key, Buffer.from(signature, 'base64url')), true);
        return head;
      };
      const head = verified(tokens.access_token as string);
      assert.equal(head.typ, 'at+jwt');
      assert.equal(head.alg, 'ES256');
      assert.equal(verified(tokens.id_token as string).alg, 'RS256', 'ID tokens stay RS256 (OpenID Connect Core 15.1)');

      const claims = decode((tokens.access_token as string).split('.')[1]);
      assert.equal(claims.iss, provider.base);
      assert.equal(claims.sub, user.id);
      assert.equal(claims.client_id, registered.clientId);
      assert.equal(claims.aud, provider.base);
      assert.ok(typeof claims.jti === 'string' && typeof claims.exp === 'number');
      assert.ok((claims.exp as number) - (claims.iat as number) <= 3600);
      assert.match(claims.scope as string, /openid/);

      const info = await client.userinfo(tokens.access_token as string);
      assert.equal(info.sub, user.id);
      assert.equal(info.email, user.email);
      assert.equal(info.preferred_username, user.username);

      const introspected = await client.introspect(tokens.access_token as string);
      assert.equal(introspected.active, true);
      assert.equal(introspected.sub, user.id);
      assert.equal(introspected.client_id, registered.clientId);
    });

    it('when an access token was signed RS256 by the provider (as before access tokens moved to ES256), then it still answers until it expires', async () => {
      const { user, client, run } = await signedInApplication();
      const tokens = await redeem(client, redirectUri, run);
      const { RS256: rsa } = (await createProviderKeys({ models: ctx().models, store: ctx().store, jwtSecret: ctx().config.jwtSecret, logger: ctx().logger }).current()).signing;
      const header = Buffer.from(JSON.stringify({ alg: 'RS256', typ: 'at+jwt', kid: rsa.kid })).toString('base64url');
      const payload = (tokens.access_token as string).split('.')[1];
      const signature = crypto.sign('sha256', Buffer.from(`${header}.${payload}`), crypto.createPrivateKey({ key: rsa, format: 'jwk' })).toString('base64url');
      const earlier = `${header}.${payload}.${signature}`;
      assert.equal((await client.userinfo(earlier)).sub, user.id);
      assert.equal((await client.introspect(earlier)).active, true);
      // The same token under the ID tokens' header type is no access token.
      const idHeader = Buffer.from(JSON.stringify({ alg: 'RS256', typ: 'JWT', kid: rsa.kid })).toString('base64url');
      const idSigned = crypto.sign('sha256', Buffer.from(`${idHeader}.${payload}`), crypto.createPrivateKey({ key: rsa, format: 'jwk' })).toString('base64url');
      await assert.rejects(client.userinfo(`${idHeader}.${payload}.${idSigned}`), /invalid_token/);
    });

    it('when the JWT\'s bare jti or a re-signed copy is presented, then neither is a token', async () => {
      const { client, run } = await signedInApplication();
      const tokens = await redeem(client, redirectUri, run);
      const [header, payload] = (tokens.access_token as string).split('.');
      await assert.rejects(client.userinfo(decode(payload).jti as string), /invalid_token/);
      const forged = `${header}.${payload}.${Buffer.from('not a signature').toString('base64url')}`;
      await assert.rejects(client.userinfo(forged), /invalid_token/);
      assert.equal((await client.introspect(forged)).active, false);
    });
  });

  describe('the ID token and the authorization request', () => {
    it('when a code is redeemed, then the ID token carries iss, sub, aud, exp ≤ 1 h, iat, auth_time, nonce, sid and amr, and state comes back', async () => {
      const { user, registered, client, run } = await signedInApplication();
      const params = client.callbackParams(run.callbackUrl);
      assert.equal(params.state, run.state);
      const claims = (await redeem(client, redirectUri, run)).claims();
      assert.equal(claims.iss, provider.base);
      assert.equal(claims.sub, user.id);
      assert.equal(claims.aud, registered.clientId);
      assert.ok(claims.exp - claims.iat <= 3600 && claims.exp > claims.iat);
      assert.ok(Math.abs((claims.auth_time as number) - Date.now() / 1000) < 60);
      assert.equal(claims.nonce, run.nonce);
      const session = await ctx().models.Session.findOne({ where: { userId: user.id } });
      assert.equal(claims.sid, session?.id, 'sid: the sign-in session of CONTRACT 8');
      assert.deepEqual(claims.amr, ['pwd']);
    });

    it('when implicit or hybrid is asked for, then the application gets unsupported_response_type', async () => {
      const registered = await registerClient({ redirectUri });
      const client = await relyingParty(provider.base, { ...registered, redirectUri });
      for (const responseType of ['token', 'id_token', 'id_token token', 'code id_token', 'code token']) {
        const url = client.authorizationUrl({ scope: 'openid', response_type: responseType, nonce: 'n', state: 's', code_challenge: generators.codeChallenge(generators.codeVerifier()), code_challenge_method: 'S256' });
        const res = await fetch(url, { redirect: 'manual' });
        const location = new URL(res.headers.get('location') as string);
        assert.ok(location.href.startsWith(redirectUri), responseType);
        const error = location.searchParams.get('error') ?? new URLSearchParams(location.hash.slice(1)).get('error');
        assert.equal(error, 'unsupported_response_type', responseType);
      }
    });

    it('when the client is unknown, then the service answers its own 400 page and never redirects', async () => {
      const url = new URL(`${provider.base}/oidc/auth`);
      url.search = new URLSearchParams({ client_id: 'no-such-client', redirect_uri: redirectUri, response_type: 'code', scope: 'openid' }).toString();
      const res = await fetch(url, { redirect: 'manual' });
      assert.equal(res.status, 400);
      assert.equal(res.headers.get('location'), null);
      assert.match(await res.text(), /Sign-in request refused/);
    });

    it('when prompt=none and nobody is signed in, then the application gets login_required; signed in without consent, consent_required', async () => {
      const user = await makeUser();
      const registered = await registerClient({ redirectUri });
      const client = await relyingParty(provider.base, { ...registered, redirectUri });
      const browser = new CookieBrowser();
      const ask = () => browser.follow(client.authorizationUrl({ scope: 'openid', prompt: 'none', state: 's1', code_challenge: generators.codeChallenge(generators.codeVerifier()), code_challenge_method: 'S256' }), provider.base);

      const cold = new URL((await ask()).url);
      assert.equal(cold.searchParams.get('error'), 'login_required');
      assert.equal(cold.searchParams.get('state'), 's1');

      // Signed in to this application, then asking with prompt=none for another that was never allowed.
      await authorizeThroughPages(browser, provider.base, client, redirectUri, user.email, { prompt: 'consent' });
      const other = await registerClient({ redirectUri });
      const otherClient = await relyingParty(provider.base, { ...other, redirectUri });
      const res = await browser.follow(otherClient.authorizationUrl({ scope: 'openid', prompt: 'none', state: 's2', code_challenge: generators.codeChallenge(generators.codeVerifier()), code_challenge_method: 'S256' }), provider.base);
      const warm = new URL(res.url);
      assert.equal(warm.searchParams.get('error'), 'consent_required');
      assert.equal(warm.searchParams.get('state'), 's2');
    });

    it('when prompt=login or max_age=0 is asked of a signed-in user, then the sign-in page comes first and auth_time is the new sign-in', async () => {
      const { user, client, browser, run } = await signedInApplication();
      const first = (await redeem(client, redirectUri, run)).claims();
      for (const params of [{ prompt: 'login' }, { max_age: '0' }] as Record<string, string>[]) {
        await new Promise((resolve) => setTimeout(resolve, 1100));
        const again = await authorizeThroughPages(browser, provider.base, client, redirectUri, user.email, params);
        assert.equal(again.signInShown, true, JSON.stringify(params));
        const claims = (await redeem(client, redirectUri, again)).claims();
        assert.ok((claims.auth_time as number) > (first.auth_time as number), JSON.stringify(params));
      }
      // Without either, the sign-in is reused.
      const quiet = await authorizeThroughPages(browser, provider.base, client, redirectUri, user.email);
      assert.equal(quiet.signInShown, false);
    });
  });

  describe('client credentials', () => {
    it('when a confidential client asks, then it gets a JWT access token about itself; a public client is refused', async () => {
      const registered = await registerClient({ redirectUri });
      const client = await relyingParty(provider.base, { ...registered, redirectUri });
      const granted = await client.grant({ grant_type: 'client_credentials' });
      const claims = decode((granted.access_token as string).split('.')[1]);
      assert.equal(decode((granted.access_token as string).split('.')[0]).typ, 'at+jwt');
      assert.equal(claims.sub, registered.clientId);
      assert.equal((await client.introspect(granted.access_token as string)).active, true);

      const open = await registerClient({ redirectUri, public: true });
      const res = await fetch(`${provider.base}/oidc/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'client_credentials', client_id: open.clientId }) });
      assert.equal(res.status >= 400 && res.status < 500, true, String(res.status));
      const body = (await res.json()) as { error: string; error_description?: string };
      // oidc-provider names a grant type the client does not hold invalid_request (RFC 6749 5.2 allows either).
      assert.match(body.error, /^(unauthorized_client|invalid_request)$/, JSON.stringify(body));
      assert.match(body.error_description as string, /grant type/);
    });
  });

  describe('reuse', () => {
    it('when a code is redeemed twice, then the second gets invalid_grant, the tokens of the first end and the reuse is recorded', async () => {
      const { user, client, run } = await signedInApplication();
      const tokens = await redeem(client, redirectUri, run);
      await assert.rejects(redeem(client, redirectUri, run), /invalid_grant/);
      await assertEnded(client, tokens);
      assert.equal(await reuseRecorded(user.id), 1);
    });

    it('when two redemptions of one code race, then exactly one gets tokens', async () => {
      const { client, run } = await signedInApplication();
      const results = await Promise.allSettled([redeem(client, redirectUri, run), redeem(client, redirectUri, run)]);
      assert.equal(results.filter((result) => result.status === 'fulfilled').length, 1, JSON.stringify(results.map((result) => result.status === 'rejected' && String(result.reason))));
      const refused = results.find((result) => result.status === 'rejected') as PromiseRejectedResult;
      assert.match(String(refused.reason), /invalid_grant/);
    });

    it('when a superseded refresh token is presented again, then it gets invalid_grant, every token of the grant ends and the reuse is recorded', async () => {
      const { user, client, run } = await signedInApplication();
      const first = await redeem(client, redirectUri, run);
      const second = await client.refresh(first.refresh_token as string);
      assert.equal((await client.introspect(second.access_token as string)).active, true);
      await assert.rejects(client.refresh(first.refresh_token as string), /invalid_grant/);
      await assertEnded(client, second);
      assert.equal(await reuseRecorded(user.id), 1);
    });
  });

  describe('sessions', () => {
    it('when the user signs out of the service, then the application\'s access and refresh tokens end', async () => {
      const { client, browser, run } = await signedInApplication();
      const tokens = await redeem(client, redirectUri, run);
      const out = await fetch(`${provider.base}/auth/logout`, { method: 'POST', headers: asBrowser(browser) });
      assert.ok(out.status < 300, `${out.status} ${await out.text()}`);
      await assertEnded(client, tokens);
    });

    it('when the user changes their password on another device, then the application\'s tokens from this sign-in end', async () => {
      const { user, client, run } = await signedInApplication();
      const tokens = await redeem(client, redirectUri, run);
      // The device that changes the password keeps its own sign-in (CONTRACT 18); every other one ends.
      const changed = await fetch(`${provider.base}/auth/password`, {
        method: 'POST', headers: { authorization: `Bearer ${await otherDevice(user.email)}`, 'content-type': 'application/json' }, body: JSON.stringify({ currentPassword: PASSWORD, newPassword: 'a brand new sentence of words' }),
      });
      assert.equal(changed.status, 200, await changed.text());
      await assertEnded(client, tokens);
    });

    it('when the sign-in session is revoked from another device, then its tokens end and the next authorization asks to sign in again', async () => {
      const { user, client, browser, run } = await signedInApplication();
      const tokens = await redeem(client, redirectUri, run);
      const session = await ctx().models.Session.findOne({ where: { userId: user.id } });
      const revoked = await fetch(`${provider.base}/auth/sessions/${session?.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${await otherDevice(user.email)}` } });
      assert.equal(revoked.status, 204, await revoked.text());
      await assertEnded(client, tokens);
      const again = await authorizeThroughPages(browser, provider.base, client, redirectUri, user.email);
      assert.equal(again.signInShown, true, 'the provider\'s own cookie does not outlive the sign-in');
      const renewed = await redeem(client, redirectUri, again);
      assert.equal((await client.userinfo(renewed.access_token as string)).sub, user.id);
    });
  });

  describe('RP-initiated logout', () => {
    const postLogout = 'http://127.0.0.1:9/signed-out';

    async function signedInWithLogout() {
      const user = await makeUser();
      const registered = await registerClient({ redirectUri, postLogoutRedirectUri: postLogout });
      const client = await relyingParty(provider.base, { ...registered, redirectUri });
      const browser = new CookieBrowser();
      const run = await authorizeThroughPages(browser, provider.base, client, redirectUri, user.email, { prompt: 'consent' });
      return { user, client, browser, tokens: await redeem(client, redirectUri, run) };
    }

    const signedInToService = async (browser: CookieBrowser) => (await fetch(`${provider.base}/auth/me`, { headers: asBrowser(browser) })).status === 200;

    it('when the application sends an ID token hint and its registered post-logout URI, then the service\'s sign-in and the application\'s tokens end and the browser goes back with state', async () => {
      const { user, client, browser, tokens } = await signedInWithLogout();
      assert.equal(await signedInToService(browser), true);
      const url = client.endSessionUrl({ id_token_hint: tokens.id_token as string, post_logout_redirect_uri: postLogout, state: 'bye-1' });
      const res = await browser.request(url);
      assert.equal(res.status, 303);
      const back = new URL(res.headers.get('location') as string);
      assert.equal(`${back.origin}${back.pathname}`, postLogout);
      assert.equal(back.searchParams.get('state'), 'bye-1');

      assert.equal(await signedInToService(browser), false, 'the auth cookie\'s session ended');
      const session = await ctx().models.Session.findOne({ where: { userId: user.id } });
      assert.ok(session?.revokedAt, 'the session row is revoked');
      await assertEnded(client, tokens);
    });

    it('when the post-logout URI is not registered, then the service answers its own error page and ends nothing', async () => {
      const { client, browser, tokens } = await signedInWithLogout();
      const res = await browser.request(client.endSessionUrl({ id_token_hint: tokens.id_token as string, post_logout_redirect_uri: 'https://evil.example/out' }));
      assert.equal(res.status, 400);
      assert.equal(res.headers.get('location'), null);
      assert.equal(await signedInToService(browser), true);
    });

    it('when no hint is sent, then the user is asked first; "yes" ends the sign-in and a page of ours moves on to the application with state', async () => {
      const { client, browser, tokens } = await signedInWithLogout();
      const query = new URLSearchParams({ client_id: client.metadata.client_id, post_logout_redirect_uri: postLogout, state: 'bye-2' });
      const asked = await browser.request(`${provider.base}/oidc/session/end?${query}`);
      assert.equal(asked.status, 200);
      const html = await asked.text();
      assert.match(html, /Do you want to sign out/);
      assert.equal(await signedInToService(browser), true, 'nothing ends before the answer');

      const action = /action="([^"]+)"/.exec(html)?.[1] as string;
      const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)?.[1] as string;
      const confirmed = await browser.request(new URL(action, provider.base).href, { form: { xsrf, logout: 'yes' } });
      // A form post may not redirect to another site under the CSP's form-action 'self': our page moves on.
      assert.equal(confirmed.status, 200);
      const page = await confirmed.text();
      const refresh = /http-equiv="refresh" content="0;url=([^"]+)"/.exec(page)?.[1]?.replace(/&amp;/g, '&') as string;
      const back = new URL(refresh);
      assert.equal(`${back.origin}${back.pathname}`, postLogout);
      assert.equal(back.searchParams.get('state'), 'bye-2');
      assert.equal(await signedInToService(browser), false);
      await assertEnded(client, tokens);
    });
  });

  describe('RP-initiated logout without a provider session', () => {
    it('when a browser signed in to the service but never to an application is sent to the logout endpoint, then the provider\'s own "yes" does not sign it out of the service', async () => {
      const user = await makeUser();
      const browser = new CookieBrowser();
      const login = await browser.request(`${provider.base}/auth/login`, { form: { email: user.email, password: PASSWORD, redirect: '/admin/profile' } });
      assert.equal(login.status, 302);
      const page = await browser.request(`${provider.base}/oidc/session/end`);
      const html = await page.text();
      const action = /action="([^"]+)"/.exec(html)?.[1] as string;
      const fields = Object.fromEntries([...html.matchAll(/name="([^"]+)" value="([^"]*)"/g)].map((match) => [match[1], match[2]]));
      assert.equal(fields.logout, 'yes', 'the provider posts "yes" itself');
      await browser.request(new URL(action.replace(/&amp;/g, '&'), provider.base).href, { form: fields });
      assert.equal((await fetch(`${provider.base}/auth/me`, { headers: asBrowser(browser) })).status, 200, 'still signed in to the service');
    });
  });

  describe('introspection and revocation', () => {
    it('when the caller is not an authenticated client, then introspection and revocation answer RFC 6749 JSON errors, never a 5xx', async () => {
      const registered = await registerClient({ redirectUri });
      const open = await registerClient({ redirectUri, public: true });
      const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
      const cases: { path: string; headers: Record<string, string>; body: string }[] = [];
      for (const path of ['/oidc/token/introspection', '/oidc/token/revocation']) {
        cases.push({ path, headers: {}, body: 'token=abc' });
        cases.push({ path, headers: { authorization: basic(registered.clientId, 'wrong') }, body: 'token=abc' });
        cases.push({ path, headers: { authorization: basic(registered.clientId, registered.clientSecret) }, body: '' });
        cases.push({ path, headers: { authorization: basic(registered.clientId, registered.clientSecret) }, body: 'token=a&token=b' });
        cases.push({ path, headers: { authorization: 'Basic %%%' }, body: 'token=abc' });
      }
      for (const { path, headers, body } of cases) {
        const res = await fetch(`${provider.base}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body });
        assert.ok(res.status >= 400 && res.status < 500, `${path} ${JSON.stringify(headers)} ${body}: ${res.status}`);
        const json = (await res.json()) as { error: string; error_description: string };
        assert.equal(typeof json.error, 'string');
        assert.equal(typeof json.error_description, 'string');
      }

      // Paths and parameters the provider cannot read are refused, not failed on.
      for (const path of ['/oidc/session/end/%E0%A4%A', '/oidc/token?%E0%A4%A=1', '/oidc/nothing-here', '/oidc/auth?client_id[x]=1']) {
        const res = await fetch(`${provider.base}${path}`, { redirect: 'manual' });
        assert.ok(res.status >= 400 && res.status < 500, `${path}: ${res.status}`);
      }

      // A public client (no secret) learns nothing, not even about its own tokens.
      const { client, run } = await signedInApplication();
      const tokens = await redeem(client, redirectUri, run);
      const res = await fetch(`${provider.base}/oidc/token/introspection`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token: tokens.access_token as string, client_id: open.clientId }) });
      assert.deepEqual(await res.json(), { active: false });
    });

    it('when the application revokes its refresh token, then it and its access tokens end', async () => {
      const { client, run } = await signedInApplication();
      const tokens = await redeem(client, redirectUri, run);
      await client.revoke(tokens.refresh_token as string, 'refresh_token');
      await assertEnded(client, tokens);
    });
  });

  describe('discovery and JWKS', () => {
    for (const path of ['/.well-known/openid-configuration', '/.well-known/jwks.json']) {
      it(`when ${path} is asked again with its ETag, then it answers 304; both carry Cache-Control`, async () => {
        const first = await fetch(`${provider.base}${path}`);
        assert.equal(first.status, 200);
        assert.match(first.headers.get('cache-control') as string, /max-age=\d+/);
        const etag = first.headers.get('etag');
        assert.ok(etag, 'an ETag');
        await first.arrayBuffer();
        const again = await fetch(`${provider.base}${path}`, { headers: { 'if-none-match': etag } });
        assert.equal(again.status, 304);
        const other = await fetch(`${provider.base}${path}`, { headers: { 'if-none-match': '"stale"' } });
        assert.equal(other.status, 200);
      });
    }
  });
});
