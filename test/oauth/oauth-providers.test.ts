import assert from 'node:assert/strict';
import request from 'supertest';
import { buildApp, ctx, uniqueEmail } from '../support/context';
import { setCookies } from '../support/auth';
import { createUserWithToken } from '../support/users';
import { OAuthProviderStandIn, authorizeAt, bindingCookie, configureProviders, enableBoth, pathOf, signInWith, CLIENTS } from '../support/oauth-provider';
import { createOAuthProviders, type ProviderProfile } from '../../src/oauth/oauth-providers';

let nextId = 70_000;
const person = () => {
  nextId += 1;
  return { id: nextId, login: `p${nextId}`, emails: [{ email: uniqueEmail('prov'), primary: true, verified: true }] };
};

describe('OAuth providers from the plugin settings', () => {
  let stand: OAuthProviderStandIn;
  before(async () => {
    stand = await new OAuthProviderStandIn().start();
  });
  after(async () => {
    await stand.stop();
  });
  beforeEach(async () => {
    stand.secrets.github = CLIENTS.github.clientSecret;
    await enableBoth(stand);
  });

  it('when private outbound addresses are not allowed and a stored endpoint name resolves to one, then the server sends the provider nothing: no code, no client secret (finding 4, judged at connection time)', async () => {
    // Settings as they could stand after a name was re-pointed: saved while public, resolving to loopback now.
    const byName = (settings: Record<string, unknown>) => JSON.parse(JSON.stringify(settings).replaceAll('127.0.0.1', 'localhost')) as Record<string, unknown>;
    await configureProviders({ github: byName(stand.settingsFor('github')) });
    const strict = buildApp({ env: { ALLOW_PRIVATE_OUTBOUND: 'false' } });
    stand.as('github', person());
    const tokenRequestsBefore = stand.tokenRequests.length;

    const start = await request(strict).get('/auth/oauth/github');
    const path = pathOf(await authorizeAt(start.headers.location.replace('localhost', '127.0.0.1')));
    const callback = await request(strict).get(path).set('Cookie', bindingCookie(start));

    assert.equal(callback.status, 302);
    assert.match(callback.headers.location, /^\/auth\/login\?notice=github_sign_in_failed/);
    assert.equal(setCookies(callback).auth_token, undefined);
    assert.equal(stand.tokenRequests.length, tokenRequestsBefore, 'the token request never left');

    // A literal private address is refused before anything is sent, as unusable settings are.
    await configureProviders({ github: stand.settingsFor('github') });
    const literal = await request(strict).get('/auth/oauth/github');
    assert.equal(literal.status, 400);
  });

  it('when a flow starts on one instance, then it completes on a second instance sharing the store and the database', async () => {
    const first = ctx().app;
    const second = buildApp();
    stand.as('github', person());

    const start = await request(first).get('/auth/oauth/github');
    const path = pathOf(await authorizeAt(start.headers.location));
    const callback = await request(second).get(path).set('Cookie', bindingCookie(start));

    assert.equal(callback.status, 302);
    assert.equal(callback.headers.location, '/admin');
    assert.ok(setCookies(callback).auth_token);
  });

  it("when an admin changes the client secret or switches a provider off on one instance, then the other uses it at once, without a restart", async () => {
    const one = ctx().app;
    const two = buildApp();
    const { token } = await createUserWithToken('admin');
    const put = (body: object) => request(one).put('/api/plugins/oauth-providers').set('Authorization', `Bearer ${token}`).send(body);
    stand.as('github', person());
    assert.equal((await signInWith(two, 'github')).callback.headers.location, '/admin');

    // The provider now expects a new secret: instance two must not keep using the old one.
    stand.secrets.github = 'rotated-secret';
    const stale = await signInWith(two, 'github');
    assert.ok(stale.callback.headers.location.startsWith('/auth/login?notice='));
    assert.equal((await put({ settings: { providers: { github: { clientSecret: 'rotated-secret' } } } })).status, 200);
    const fresh = await signInWith(two, 'github');
    assert.equal(fresh.callback.headers.location, '/admin');
    assert.equal(stand.tokenRequests[stand.tokenRequests.length - 1].client_secret, 'rotated-secret');

    assert.equal((await put({ settings: { providers: { github: { enabled: false } } } })).status, 200);
    assert.equal((await request(two).get('/auth/oauth/github')).status, 400);
    assert.doesNotMatch((await request(two).get('/auth/login').set('Accept', 'text/html')).text, /Sign in with GitHub/);
    assert.equal((await request(two).get('/auth/oauth/google')).status, 302);
  });

  it('when BASE_URL is set, then redirect_uri is built from it whatever Host or X-Forwarded-Host say', async () => {
    const app = buildApp({ env: { BASE_URL: 'https://auth.example.com/', TRUST_PROXY: 'true' } });
    const res = await request(app).get('/auth/oauth/google').set('Host', 'attacker.example').set('X-Forwarded-Host', 'attacker.example').set('X-Forwarded-Proto', 'http');
    assert.equal(new URL(res.headers.location).searchParams.get('redirect_uri'), 'https://auth.example.com/auth/oauth/google/callback');
  });

  describe('identityOf', () => {
    const providers = () => createOAuthProviders({ config: ctx().config, plugins: { isActive: async () => true, settingsOf: async () => ({}) as never }, store: ctx().store });
    const github = (json: Record<string, unknown>, emails: ProviderProfile['emails']): ProviderProfile => ({ id: '7', displayName: 'Octo', photos: [{ value: 'https://a/x.png' }], emails, _json: json });

    it('when the GitHub public email is marked verified in /user/emails, then it is used as verified', () => {
      const identity = providers().identityOf('github', github({ email: 'Public@Example.test' }, [
        { value: 'primary@example.test', primary: true, verified: true },
        { value: 'public@example.test', primary: false, verified: true },
      ]));
      assert.deepEqual(identity, { provider: 'github', providerAccountId: '7', email: 'public@example.test', emailVerified: true, name: 'Octo', avatarUrl: 'https://a/x.png' });
    });

    it('when the GitHub public email is not verified, then the primary verified one is used; with none verified, the address is unverified', () => {
      const both = providers().identityOf('github', github({ email: 'public@example.test' }, [
        { value: 'primary@example.test', primary: true, verified: true },
        { value: 'public@example.test', primary: false, verified: false },
      ]));
      assert.deepEqual([both.email, both.emailVerified], ['primary@example.test', true]);
      const none = providers().identityOf('github', github({ email: null }, [{ value: 'primary@example.test', primary: true, verified: false }]));
      assert.deepEqual([none.email, none.emailVerified], ['primary@example.test', false]);
    });

    it('when Google answers email_verified as a string, then "true" counts and anything else does not', () => {
      const google = (verified: unknown) => providers().identityOf('google', { id: 's', _json: { sub: 's', email: 'G@Example.test', email_verified: verified } });
      assert.deepEqual([google('true').email, google('true').emailVerified], ['g@example.test', true]);
      assert.equal(google(true).emailVerified, true);
      assert.equal(google('false').emailVerified, false);
      assert.equal(google(undefined).emailVerified, false);
    });
  });
});
