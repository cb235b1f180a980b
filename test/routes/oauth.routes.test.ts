import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import request, { type Response } from 'supertest';
import { Writable } from 'node:stream';
import { createApp } from '../../src/app';
import { RedisStore } from '../../src/store/redis-store';
import { buildApp, ctx, resetDatabase, uniqueEmail } from '../support/context';
import { closedPort } from '../support/ports';
import { noticeOf } from '../../src/http/notices';
import { createLogger } from '../../src/logger';
import { makeUser, setCookies, payloadOf, tokenFor, PASSWORD } from '../support/auth';
import {
  OAuthProviderStandIn, authorizeAt, bindingCookie, credentialCookies, bindingCookieOf, configureProviders, enableBoth, pathOf, signInWith, CLIENTS,
  type GitHubPerson,
} from '../support/oauth-provider';

let stand: OAuthProviderStandIn;
let nextId = 1000;

function githubPerson(email: string | null, overrides: Partial<GitHubPerson> = {}): GitHubPerson {
  nextId += 1;
  return {
    id: nextId,
    login: `octo${nextId}`,
    name: 'Octo Cat',
    email: null,
    avatar_url: `https://avatars.example/${nextId}`,
    emails: email ? [{ email, primary: true, verified: true, visibility: 'private' }] : [],
    ...overrides,
  };
}

/** The user id of the auth_token cookie a response set. */
function subOf(res: Response): string {
  return payloadOf(setCookies(res).auth_token.value).sub as string;
}

function errorOf(location: string): string | null {
  return noticeOf({ notice: new URL(location, 'http://x').searchParams.get('notice') }).error;
}

async function activity(action: string, userId?: string) {
  return ctx().models.ActivityLog.findAll({ where: userId ? { action, userId } : { action }, order: [['id', 'ASC']] });
}

/** The reason of the latest auth.login_failed row. */
async function lastFailure(): Promise<unknown> {
  const row = await ctx().models.ActivityLog.findOne({ where: { action: 'auth.login_failed' }, order: [['id', 'DESC']] });
  return (row?.details as Record<string, unknown> | undefined)?.reason;
}

describe('OAuth routes', () => {
  before(async () => {
    stand = await new OAuthProviderStandIn().start();
  });
  after(async () => {
    await stand.stop();
  });
  beforeEach(async () => {
    stand.mode = 'redirect';
    stand.tokenAnswer = null;
    await enableBoth(stand);
    await ctx().models.Setting.destroy({ where: { key: 'security.allowRegistration' } });
  });

  describe('GET /auth/oauth/:provider', () => {
    it('when the shared store (Redis) is unreachable, then starting a flow answers 503 with Retry-After, not 500', async () => {
      const deadStore = new RedisStore(`redis://127.0.0.1:${await closedPort()}`);
      await assert.rejects(deadStore.connect());
      const c = ctx();
      try {
        const app = createApp({ config: c.config, logger: c.logger, sequelize: c.sequelize, models: c.models, store: deadStore });
        const res = await request(app).get('/auth/oauth/github');
        assert.equal(res.status, 503);
        assert.equal(res.headers['retry-after'], '5');
        assert.deepEqual(res.body, { error: 'Service unavailable' });
      } finally {
        await deadStore.close();
      }
    });

    it('when GitHub is enabled, then it redirects to the provider with BASE_URL redirect_uri, the scopes, a 256-bit state and a PKCE S256 challenge, and binds the state by a Lax cookie', async () => {
      const res = await request(ctx().app).get('/auth/oauth/github').set('Host', 'evil.example').set('X-Forwarded-Host', 'evil.example');

      assert.equal(res.status, 302);
      const location = new URL(res.headers.location);
      assert.equal(`${location.origin}${location.pathname}`, `${stand.url}/github/authorize`);
      const query = Object.fromEntries(location.searchParams);
      assert.equal(query.redirect_uri, 'http://localhost:3000/auth/oauth/github/callback');
      assert.equal(query.client_id, CLIENTS.github.clientId);
      assert.equal(query.response_type, 'code');
      assert.equal(query.scope, 'read:user,user:email');
      assert.ok(Buffer.from(query.state, 'base64url').length >= 16, 'state has at least 128 bits');
      assert.equal(query.code_challenge_method, 'S256');
      assert.match(query.code_challenge, /^[A-Za-z0-9_-]{43}$/);
      const binding = bindingCookieOf(res);
      assert.ok(binding, 'binding cookie');
      assert.equal(binding.attributes.httponly, true);
      assert.equal(String(binding.attributes.samesite).toLowerCase(), 'lax');
      assert.equal(setCookies(res).auth_token, undefined);
      assert.equal(res.headers['cache-control'], 'no-store');
    });

    it('when Google is enabled, then the scopes are openid email profile', async () => {
      const res = await request(ctx().app).get('/auth/oauth/google');
      assert.equal(res.status, 302);
      const query = new URL(res.headers.location).searchParams;
      assert.equal(query.get('scope'), 'openid email profile');
      assert.equal(query.get('redirect_uri'), 'http://localhost:3000/auth/oauth/google/callback');
      assert.equal(query.get('code_challenge_method'), 'S256');
    });

    it('when two flows start, then their states differ', async () => {
      const [a, b] = await Promise.all([request(ctx().app).get('/auth/oauth/github'), request(ctx().app).get('/auth/oauth/github')]);
      assert.notEqual(new URL(a.headers.location).searchParams.get('state'), new URL(b.headers.location).searchParams.get('state'));
    });

    it('when the provider is unknown, then 404 with the CONTRACT message', async () => {
      const res = await request(ctx().app).get('/auth/oauth/facebook');
      assert.equal(res.status, 404);
      assert.deepEqual(res.body, { error: 'Unknown OAuth provider' });
    });

    it('when the provider is disabled, not configured, or the plugin is off, then 400 with the CONTRACT message', async () => {
      const expected = { error: 'OAuth provider "github" is not configured or not enabled' };
      await configureProviders({ github: stand.settingsFor('github', false) });
      assert.deepEqual((await request(ctx().app).get('/auth/oauth/github').expect(400)).body, expected);
      await configureProviders({});
      assert.deepEqual((await request(ctx().app).get('/auth/oauth/github').expect(400)).body, expected);
      await configureProviders({ github: stand.settingsFor('github') }, false);
      assert.deepEqual((await request(ctx().app).get('/auth/oauth/github').expect(400)).body, expected);
    });

    it('when a flow starts and completes 30 times a minute from one IP, then the next start is 429 with the rate-limit headers', async () => {
      const app = ctx().app;
      let last;
      for (let i = 0; i < 30; i++) last = await request(app).get(i % 2 ? '/auth/oauth/github/callback?code=x&state=y' : '/auth/oauth/github');
      assert.equal(last!.headers['x-ratelimit-remaining'], '0');
      const limited = await request(app).get('/auth/oauth/github');
      assert.equal(limited.status, 429);
      assert.ok(Number(limited.headers['retry-after']) >= 1);
      assert.equal((await request(app).get('/auth/oauth/github/callback?code=x&state=y')).status, 429);
    });
  });

  describe('GET /auth/oauth/:provider/callback', () => {
    it('when a new person signs in with a verified GitHub email, then a viewer is created and linked, cookies are SameSite=Lax and the browser goes to /admin', async () => {
      await makeUser(); // not the first user
      const email = uniqueEmail('newgh');
      const person = githubPerson(email, { name: 'Ada Lovelace' });
      stand.as('github', person);

      const { callback } = await signInWith(ctx().app, 'github');

      assert.equal(callback.status, 302);
      assert.equal(callback.headers.location, '/admin');
      const cookies = setCookies(callback);
      assert.equal(String(cookies.auth_token.attributes.samesite).toLowerCase(), 'lax');
      assert.equal(cookies.auth_token.attributes.httponly, true);
      assert.equal(String(cookies.csrf_token.attributes.samesite).toLowerCase(), 'lax');
      assert.equal(callback.headers['cache-control'], 'no-store');
      const user = await ctx().models.User.findOne({ where: { email } });
      assert.ok(user);
      assert.equal(user.role, 'viewer');
      assert.equal(user.passwordHash, null);
      assert.equal(user.firstName, 'Ada');
      assert.equal(user.lastName, 'Lovelace');
      assert.equal(user.avatarUrl, person.avatar_url);
      assert.equal(payloadOf(cookies.auth_token.value).sub, user.id);
      const link = await ctx().models.OAuthAccount.findOne({ where: { userId: user.id } });
      assert.equal(link?.provider, 'github');
      assert.equal(link?.providerAccountId, String(person.id));
      const [login] = await activity('oauth.login', user.id);
      assert.equal(login.ip !== null, true);
      assert.deepEqual(login.details, { method: 'github', created: true, role: 'viewer', linked: true });
      assert.equal((await activity('oauth.linked', user.id)).length, 1);
    });

    it('when the token endpoint answers a refresh token, then neither it nor the access token is stored or logged', async () => {
      stand.as('github', githubPerson(uniqueEmail('tok')));
      const { callback } = await signInWith(ctx().app, 'github');
      assert.equal(callback.status, 302);
      const rows = await ctx().models.ActivityLog.findAll();
      assert.ok(!JSON.stringify(rows.map((row) => row.details)).includes('refresh-secret'));
      const columns = Object.keys(ctx().models.OAuthAccount.getAttributes());
      assert.ok(!columns.some((name) => /token/i.test(name)), `no token column in ${columns.join(', ')}`);
    });

    it('when a flow is logged, then neither the code, the state, the binding cookie nor any provider token is in the log', async () => {
      const lines: string[] = [];
      const sink = new Writable({ write(chunk: Buffer, _enc, done) { lines.push(chunk.toString('utf8')); done(); } });
      const app = buildApp({ logger: createLogger('trace', sink) });
      stand.as('github', githubPerson(uniqueEmail('logged')));

      const flow = await signInWith(app, 'github');

      assert.equal(flow.callback.headers.location, '/admin');
      const log = lines.join('');
      const callback = new URL(flow.callbackPath, 'http://x').searchParams;
      assert.ok(log.includes('/auth/oauth/github/callback'), 'the callback is logged');
      for (const secret of [callback.get('code')!, callback.get('state')!, flow.cookie.split('=')[1], 'refresh-secret', CLIENTS.github.clientSecret]) {
        assert.ok(!log.includes(secret), 'a secret reached the log');
      }
    });

    it('when the flow carried a same-origin redirect, then the browser lands there; a foreign one is dropped', async () => {
      stand.as('github', githubPerson(uniqueEmail('redir')));
      const inside = await signInWith(ctx().app, 'github', { query: '?redirect=%2Fadmin%2Fprofile' });
      assert.equal(inside.callback.headers.location, '/admin/profile');
      stand.as('github', githubPerson(uniqueEmail('redir2')));
      const outside = await signInWith(ctx().app, 'github', { query: '?redirect=https%3A%2F%2Fevil.example%2F' });
      assert.equal(outside.callback.headers.location, '/admin');
    });

    it('when the same person signs in again, then rule 1 signs in the linked user without creating anyone', async () => {
      const person = githubPerson(uniqueEmail('again'));
      stand.as('github', person);
      const first = await signInWith(ctx().app, 'github');
      const firstUser = subOf(first.callback);
      const users = await ctx().models.User.count();

      const second = await signInWith(ctx().app, 'github');

      assert.equal(second.callback.status, 302);
      assert.equal(subOf(second.callback), firstUser);
      assert.equal(await ctx().models.User.count(), users);
    });

    it('when a linked person changed their GitHub email, then rule 1 still signs in the same user (identity is the account id, not the email)', async () => {
      const person = githubPerson(uniqueEmail('before'));
      stand.as('github', person);
      const first = await signInWith(ctx().app, 'github');
      const userId = subOf(first.callback);
      const other = await makeUser();
      stand.as('github', { ...person, emails: [{ email: other.email, primary: true, verified: true }] });

      const second = await signInWith(ctx().app, 'github');

      assert.equal(subOf(second.callback), userId);
    });

    it('when a Google account id equals the id of a GitHub link, then rule 1 does not match it: the GitHub-linked user is not signed in', async () => {
      const person = githubPerson(uniqueEmail('gh-linked'));
      stand.as('github', person);
      const githubUser = subOf((await signInWith(ctx().app, 'github')).callback);
      assert.equal(await ctx().models.OAuthAccount.count({ where: { provider: 'github', providerAccountId: String(person.id), userId: githubUser } }), 1);

      const googleEmail = uniqueEmail('same-id-google');
      stand.as('google', { sub: String(person.id), email: googleEmail, email_verified: true, name: 'Other Person' });
      const { callback } = await signInWith(ctx().app, 'google');

      assert.equal(callback.status, 302);
      assert.notEqual(subOf(callback), githubUser);
      // No link matched, so rule 3 made a new viewer for the Google address and linked it.
      const created = await ctx().models.User.findOne({ where: { email: googleEmail } });
      assert.ok(created, 'a new account for the Google address');
      assert.equal(subOf(callback), created.id);
      assert.equal(created.role, 'viewer');
      assert.equal(await ctx().models.OAuthAccount.count({ where: { provider: 'google', providerAccountId: String(person.id), userId: created.id } }), 1);
    });

    it('when a verified GitHub email matches an account, then rule 2 links it and signs that user in', async () => {
      const user = await makeUser({ role: 'editor' });
      stand.as('github', githubPerson(user.email.toUpperCase()));

      const { callback } = await signInWith(ctx().app, 'github');

      assert.equal(callback.status, 302);
      assert.equal(subOf(callback), user.id);
      assert.equal(await ctx().models.OAuthAccount.count({ where: { userId: user.id, provider: 'github' } }), 1);
      const [linked] = await activity('oauth.linked', user.id);
      assert.equal((linked.details as Record<string, unknown>).via, 'verified_email');
    });

    it('when the GitHub profile has no public email, then the primary verified address from /user/emails is used', async () => {
      const user = await makeUser();
      stand.as('github', githubPerson(null, {
        email: null,
        emails: [
          { email: uniqueEmail('secondary'), primary: false, verified: true },
          { email: user.email, primary: true, verified: true },
        ],
      }));
      const { callback } = await signInWith(ctx().app, 'github');
      assert.equal(subOf(callback), user.id);
    });

    it('when the matching GitHub address is not verified, then it neither links nor signs in, and no account is created for it', async () => {
      const user = await makeUser();
      stand.as('github', githubPerson(null, { email: user.email, emails: [{ email: user.email, primary: true, verified: false }] }));

      const { callback } = await signInWith(ctx().app, 'github');

      assert.equal(callback.status, 302);
      assert.match(errorOf(callback.headers.location) ?? '', /not verified/);
      assert.ok(callback.headers.location.startsWith('/auth/login?notice='));
      assert.equal(setCookies(callback).auth_token, undefined);
      assert.equal(await ctx().models.OAuthAccount.count({ where: { userId: user.id } }), 0);

      const fresh = uniqueEmail('unverified-new');
      stand.as('github', githubPerson(null, { emails: [{ email: fresh, primary: true, verified: false }] }));
      const created = await signInWith(ctx().app, 'github');
      assert.match(errorOf(created.callback.headers.location) ?? '', /not verified/);
      assert.equal(await ctx().models.User.count({ where: { email: fresh } }), 0);
    });

    it('when Google says email_verified true, then the account is linked; false, then it is refused', async () => {
      const user = await makeUser();
      stand.as('google', { sub: `g-${crypto.randomUUID()}`, email: user.email, email_verified: false, name: 'G User' });
      const refused = await signInWith(ctx().app, 'google');
      assert.match(errorOf(refused.callback.headers.location) ?? '', /not verified/);
      assert.equal(setCookies(refused.callback).auth_token, undefined);

      stand.as('google', { sub: `g-${crypto.randomUUID()}`, email: user.email, email_verified: true, given_name: 'G', family_name: 'User' });
      const accepted = await signInWith(ctx().app, 'google');
      assert.equal(accepted.callback.headers.location, '/admin');
      assert.equal(subOf(accepted.callback), user.id);
    });

    it('when the provider gives no email at all, then 302 to the sign-in page with the reason and no cookies', async () => {
      stand.as('github', githubPerson(null, { email: null, emails: [] }));
      const github = await signInWith(ctx().app, 'github');
      assert.ok(github.callback.headers.location.startsWith('/auth/login?notice='));
      assert.deepEqual(credentialCookies(github.callback), []);

      stand.as('google', { sub: `g-${crypto.randomUUID()}`, name: 'No Mail' });
      const google = await signInWith(ctx().app, 'google');
      assert.match(errorOf(google.callback.headers.location) ?? '', /did not share an email/);
      assert.deepEqual(credentialCookies(google.callback), []);
    });

    it('when registration is turned off, then a new person is refused but an existing link still signs in', async () => {
      await makeUser();
      const known = githubPerson(uniqueEmail('known'));
      stand.as('github', known);
      await signInWith(ctx().app, 'github');
      await ctx().models.Setting.upsert({ key: 'security.allowRegistration', value: false });
      try {
        const email = uniqueEmail('closed');
        stand.as('github', githubPerson(email));
        const refused = await signInWith(ctx().app, 'github');
        assert.equal(errorOf(refused.callback.headers.location), 'Registration is currently disabled');
        assert.deepEqual(credentialCookies(refused.callback), []);
        assert.equal(await ctx().models.User.count({ where: { email } }), 0);

        stand.as('github', known);
        const again = await signInWith(ctx().app, 'github');
        assert.equal(again.callback.headers.location, '/admin');
      } finally {
        await ctx().models.Setting.destroy({ where: { key: 'security.allowRegistration' } });
      }
    });

    it('when nobody exists yet, then the first OAuth user becomes admin, even with registration off', async () => {
      await resetDatabase();
      await enableBoth(stand);
      await ctx().models.Setting.upsert({ key: 'security.allowRegistration', value: false });
      stand.as('google', { sub: 'first-google', email: uniqueEmail('first'), email_verified: true, name: 'First One' });

      const { callback } = await signInWith(ctx().app, 'google');

      assert.equal(callback.headers.location, '/admin');
      const user = await ctx().models.User.findByPk(subOf(callback));
      assert.equal(user?.role, 'admin');
    });

    it('when the linked user is deactivated, then they never sign in (rule 1), nor through a verified email (rule 2)', async () => {
      const person = githubPerson(uniqueEmail('deact'));
      stand.as('github', person);
      const first = await signInWith(ctx().app, 'github');
      const userId = subOf(first.callback);
      await ctx().models.User.update({ active: false }, { where: { id: userId } });

      const linked = await signInWith(ctx().app, 'github');
      assert.equal(errorOf(linked.callback.headers.location), 'This account is not active');
      assert.deepEqual(credentialCookies(linked.callback), []);

      const inactive = await makeUser({ active: false });
      stand.as('github', githubPerson(inactive.email));
      const byEmail = await signInWith(ctx().app, 'github');
      assert.equal(errorOf(byEmail.callback.headers.location), 'This account is not active');
      assert.equal(await ctx().models.OAuthAccount.count({ where: { userId: inactive.id } }), 0);
      const failures = await activity('auth.login_failed', inactive.id);
      assert.deepEqual(failures[0].details, { method: 'github', reason: 'inactive' });
    });

    describe('state', () => {
      it('when a callback is replayed, then the second use is refused with no cookies', async () => {
        stand.as('github', githubPerson(uniqueEmail('replay')));
        const flow = await signInWith(ctx().app, 'github');
        assert.equal(flow.callback.headers.location, '/admin');

        const replay = await request(ctx().app).get(flow.callbackPath).set('Cookie', flow.cookie);

        assert.equal(replay.status, 302);
        assert.match(errorOf(replay.headers.location) ?? '', /expired, was already used/);
        assert.deepEqual(credentialCookies(replay), []);
      });

      it('when the same callback arrives twice at once, then exactly one signs in', async () => {
        stand.as('github', githubPerson(uniqueEmail('race')));
        const start = await request(ctx().app).get('/auth/oauth/github');
        const path = pathOf(await authorizeAt(start.headers.location));
        const cookie = bindingCookie(start);

        const answers = await Promise.all([1, 2, 3].map(() => request(ctx().app).get(path).set('Cookie', cookie)));

        assert.equal(answers.filter((res) => res.headers.location === '/admin').length, 1);
        assert.equal(answers.filter((res) => setCookies(res).auth_token).length, 1);
      });

      it('when the state is wrong or missing, then 302 with an error and the code is never exchanged', async () => {
        stand.as('github', githubPerson(uniqueEmail('wrong')));
        const start = await request(ctx().app).get('/auth/oauth/github');
        const back = new URL(await authorizeAt(start.headers.location));
        const tokenCalls = stand.tokenRequests.length;

        const wrong = `/auth/oauth/github/callback?code=${back.searchParams.get('code')}&state=${crypto.randomBytes(32).toString('base64url')}`;
        const missing = `/auth/oauth/github/callback?code=${back.searchParams.get('code')}`;
        for (const path of [wrong, missing]) {
          const res = await request(ctx().app).get(path).set('Cookie', bindingCookie(start));
          assert.equal(res.status, 302);
          assert.ok(res.headers.location.startsWith('/auth/login?notice='));
          assert.deepEqual(credentialCookies(res), []);
        }
        assert.equal(stand.tokenRequests.length, tokenCalls);
        const reasons = (await activity('auth.login_failed')).slice(-2).map((row) => (row.details as Record<string, unknown>).reason);
        assert.deepEqual(reasons, ['state_invalid', 'state_missing']);
      });

      it('when the callback comes from another browser (no or another binding cookie), then it is refused and the state is spent', async () => {
        stand.as('github', githubPerson(uniqueEmail('other-browser')));
        const victim = await request(ctx().app).get('/auth/oauth/github');
        const path = pathOf(await authorizeAt(victim.headers.location));
        const attacker = await request(ctx().app).get('/auth/oauth/github');

        const noCookie = await request(ctx().app).get(path);
        assert.ok(noCookie.headers.location.startsWith('/auth/login?notice='));
        assert.deepEqual(credentialCookies(noCookie), []);
        assert.equal(await lastFailure(), 'state_other_browser');
        const stillSpent = await request(ctx().app).get(path).set('Cookie', bindingCookie(victim));
        assert.ok(stillSpent.headers.location.startsWith('/auth/login?notice='));

        const path2 = pathOf(await authorizeAt((await request(ctx().app).get('/auth/oauth/github').set('Cookie', bindingCookie(victim))).headers.location));
        const otherCookie = await request(ctx().app).get(path2).set('Cookie', bindingCookie(attacker));
        assert.ok(otherCookie.headers.location.startsWith('/auth/login?notice='));
        assert.deepEqual(credentialCookies(otherCookie), []);
      });

      it('when a state of one provider arrives at the other provider\'s callback, then it is refused', async () => {
        stand.as('github', githubPerson(uniqueEmail('cross')));
        const start = await request(ctx().app).get('/auth/oauth/github');
        const path = pathOf(await authorizeAt(start.headers.location)).replace('/github/', '/google/');
        const res = await request(ctx().app).get(path).set('Cookie', bindingCookie(start));
        assert.ok(res.headers.location.startsWith('/auth/login?notice='));
        assert.deepEqual(credentialCookies(res), []);
      });
    });

    describe('provider and token failures', () => {
      it('when the user denies access at the provider, then 302 with the reason, no cookies, and the state is consumed', async () => {
        const start = await request(ctx().app).get('/auth/oauth/github');
        const state = new URL(start.headers.location).searchParams.get('state');
        const path = `/auth/oauth/github/callback?error=access_denied&error_description=denied&state=${state}`;

        const res = await request(ctx().app).get(path).set('Cookie', bindingCookie(start));

        assert.equal(res.status, 302);
        assert.match(errorOf(res.headers.location) ?? '', /cancelled or failed/);
        assert.deepEqual(credentialCookies(res), []);
      });

      it('when the provider answers another error, then the same redirect without cookies', async () => {
        const start = await request(ctx().app).get('/auth/oauth/google');
        const state = new URL(start.headers.location).searchParams.get('state');
        const res = await request(ctx().app).get(`/auth/oauth/google/callback?error=server_error&state=${state}`).set('Cookie', bindingCookie(start));
        assert.ok(res.headers.location.startsWith('/auth/login?notice='));
        assert.deepEqual(credentialCookies(res), []);
      });

      it('when the callback has neither code nor error, then it is refused rather than starting a new flow', async () => {
        const res = await request(ctx().app).get('/auth/oauth/github/callback');
        assert.equal(res.status, 302);
        assert.ok(res.headers.location.startsWith('/auth/login?notice='));
      });

      it('when the token endpoint answers without an access token, then 302 with an error and no cookies', async () => {
        stand.as('github', githubPerson(uniqueEmail('notoken')));
        stand.tokenAnswer = { token_type: 'bearer' };
        const { callback } = await signInWith(ctx().app, 'github');
        assert.ok(callback.headers.location.startsWith('/auth/login?notice='));
        assert.deepEqual(credentialCookies(callback), []);
        assert.equal(await lastFailure(), 'token_failed');
      });

      it('when the PKCE verifier does not match, then the provider refuses the code and the sign-in fails', async () => {
        stand.as('github', githubPerson(uniqueEmail('pkce')));
        const start = await request(ctx().app).get('/auth/oauth/github');
        // Tamper with the challenge on the way to the provider: the verifier the app sends can no longer match.
        const location = new URL(start.headers.location);
        location.searchParams.set('code_challenge', crypto.createHash('sha256').update('attacker').digest('base64url'));
        const path = pathOf(await authorizeAt(location.toString()));

        const res = await request(ctx().app).get(path).set('Cookie', bindingCookie(start));

        assert.ok(res.headers.location.startsWith('/auth/login?notice='));
        assert.deepEqual(credentialCookies(res), []);
        const last = stand.tokenRequests[stand.tokenRequests.length - 1];
        assert.match(last.code_verifier, /^[A-Za-z0-9_-]{43}$/);
        assert.equal(last.redirect_uri, 'http://localhost:3000/auth/oauth/github/callback');
      });

      it('when the provider is disabled while a flow is in flight, then its callback is refused with a redirect', async () => {
        stand.as('github', githubPerson(uniqueEmail('inflight')));
        const start = await request(ctx().app).get('/auth/oauth/github');
        const path = pathOf(await authorizeAt(start.headers.location));
        await configureProviders({ github: stand.settingsFor('github', false) });

        const res = await request(ctx().app).get(path).set('Cookie', bindingCookie(start));

        assert.equal(res.status, 302);
        assert.match(errorOf(res.headers.location) ?? '', /not available/);
        assert.deepEqual(credentialCookies(res), []);
      });

      it('when the callback names an unknown provider, then 404', async () => {
        const res = await request(ctx().app).get('/auth/oauth/myspace/callback?code=a&state=b');
        assert.equal(res.status, 404);
        assert.deepEqual(res.body, { error: 'Unknown OAuth provider' });
      });
    });
  });

  describe('sign-in page', () => {
    it('when providers are enabled, then the page links "Sign in with GitHub" and "Sign in with Google"; a disabled one is not shown', async () => {
      const both = await request(ctx().app).get('/auth/login').set('Accept', 'text/html');
      assert.match(both.text, /<a href="\/auth\/oauth\/github">Sign in with GitHub<\/a>/);
      assert.match(both.text, /<a href="\/auth\/oauth\/google">Sign in with Google<\/a>/);

      await configureProviders({ github: stand.settingsFor('github'), google: stand.settingsFor('google', false) });
      const one = await request(ctx().app).get('/auth/login?redirect=%2Fadmin%2Fusers').set('Accept', 'text/html');
      assert.match(one.text, /href="\/auth\/oauth\/github\?redirect=%2Fadmin%2Fusers">Sign in with GitHub/);
      assert.doesNotMatch(one.text, /Sign in with Google/);

      await configureProviders({ github: stand.settingsFor('github') }, false);
      assert.doesNotMatch((await request(ctx().app).get('/auth/login').set('Accept', 'text/html')).text, /Sign in with GitHub/);
    });
  });

  describe('password sign-in is unaffected', () => {
    it('when a user with a password signs in, then auth_token stays SameSite=Strict', async () => {
      const user = await makeUser();
      const res = await request(ctx().app).post('/auth/login').send({ email: user.email, password: PASSWORD });
      assert.equal(String(setCookies(res).auth_token.attributes.samesite).toLowerCase(), 'strict');
      void tokenFor;
    });
  });
});
