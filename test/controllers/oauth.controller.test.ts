import assert from 'node:assert/strict';
import request, { type Response } from 'supertest';
import { ctx, uniqueEmail } from '../support/context';
import { cookieHeader, makeUser, payloadOf, setCookies, tokenFor, PASSWORD } from '../support/auth';
import { OAuthProviderStandIn, authorizeAt, bindingCookie, credentialCookies, landing, bindingCookieOf, configureProviders, enableBoth, pathOf, signInWith, type GitHubPerson } from '../support/oauth-provider';
import type { User } from '../../src/models';
import { noticeOf } from '../../src/http/notices';

let stand: OAuthProviderStandIn;
let nextId = 50_000;

function githubPerson(email = uniqueEmail('gh')): GitHubPerson {
  nextId += 1;
  return { id: nextId, login: `linker${nextId}`, name: 'Link Er', emails: [{ email, primary: true, verified: true }] };
}

/** The text the page will show for the notice code a redirect carries (its `message` or `error`). */
function query(location: string, key: 'message' | 'error'): string | null {
  return noticeOf({ notice: new URL(location, 'http://x').searchParams.get('notice') })[key];
}

/** Starts linking as the user (Bearer), lets the provider redirect back, and completes the callback in the same browser. */
async function linkAs(user: User, provider: 'github' | 'google', extraCookie?: string): Promise<{ link: Response; callback: Response }> {
  const link = await request(ctx().app).post('/auth/oauth/link').set('Authorization', `Bearer ${await tokenFor(user)}`).send({ provider });
  assert.equal(link.status, 200, JSON.stringify(link.body));
  const path = pathOf(await authorizeAt(link.body.redirectUrl));
  const callback = await request(ctx().app).get(path).set('Cookie', [bindingCookie(link), extraCookie].filter(Boolean).join('; '));
  return { link, callback };
}

/** Signs in with the password and answers the browser's cookie header and CSRF token. */
async function browserSession(user: User): Promise<{ cookie: string; csrf: string }> {
  const res = await request(ctx().app).post('/auth/login').send({ email: user.email, password: PASSWORD });
  return { cookie: cookieHeader(res), csrf: setCookies(res).csrf_token.value };
}

describe('OAuth account linking (link, unlink, accounts)', () => {
  before(async () => {
    stand = await new OAuthProviderStandIn().start();
  });
  after(async () => {
    await stand.stop();
  });
  beforeEach(async () => {
    await enableBoth(stand);
  });

  describe('POST /auth/oauth/link', () => {
    it('when a signed-in user links GitHub, then the callback links it to them and lands on /admin/profile/security with a message, handing out no session', async () => {
      const user = await makeUser();
      const person = githubPerson(uniqueEmail('other-address'));
      stand.as('github', person);

      const { link, callback } = await linkAs(user, 'github');

      assert.ok(link.body.redirectUrl.startsWith(`${stand.url}/github/authorize?`));
      assert.equal(String(bindingCookieOf(link).attributes.samesite).toLowerCase(), 'lax');
      assert.equal(callback.status, 200);
      assert.equal(landing(callback), '/admin/profile/security?notice=github_linked');
      assert.equal(setCookies(callback).auth_token, undefined, 'a linking callback never hands out a session');
      const row = await ctx().models.OAuthAccount.findOne({ where: { userId: user.id, provider: 'github' } });
      assert.equal(row?.providerAccountId, String(person.id));
      const linked = await ctx().models.ActivityLog.findOne({ where: { action: 'oauth.linked', userId: user.id } });
      assert.deepEqual(linked?.details, { provider: 'github', providerAccountId: String(person.id), via: 'link' });
      assert.ok(linked?.ip);
    });

    it('when the provider account is linked to someone else, then the link is refused at /admin/profile/security?notice= with no cookies', async () => {
      const owner = await makeUser();
      const person = githubPerson();
      stand.as('github', person);
      await linkAs(owner, 'github');
      const intruder = await makeUser();

      const { callback } = await linkAs(intruder, 'github');

      assert.equal(callback.status, 200);
      assert.equal(query(landing(callback), 'error'), 'This GitHub account is already linked to another user.');
      assert.ok(landing(callback).startsWith('/admin/profile/security?notice='));
      assert.deepEqual(credentialCookies(callback), []);
      assert.equal(await ctx().models.OAuthAccount.count({ where: { userId: intruder.id } }), 0);
    });

    it('when the user already has another GitHub account linked, then the second is refused', async () => {
      const user = await makeUser();
      stand.as('github', githubPerson());
      await linkAs(user, 'github');
      stand.as('github', githubPerson());
      const { callback } = await linkAs(user, 'github');
      assert.match(query(landing(callback), 'error') ?? '', /already linked to this account/);
    });

    it('when the linking callback arrives with another user signed in, then nothing is linked', async () => {
      const starter = await makeUser();
      const other = await makeUser();
      stand.as('github', githubPerson());

      const { callback } = await linkAs(starter, 'github', `auth_token=${await tokenFor(other)}`);

      assert.match(query(landing(callback), 'error') ?? '', /another user was signed in/);
      assert.deepEqual(credentialCookies(callback), []);
      assert.equal(await ctx().models.OAuthAccount.count({ where: { userId: [starter.id, other.id] } }), 0);
    });

    it('when the linking callback is completed in another browser, then it is refused and nothing is linked', async () => {
      const user = await makeUser();
      stand.as('github', githubPerson());
      const link = await request(ctx().app).post('/auth/oauth/link').set('Authorization', `Bearer ${await tokenFor(user)}`).send({ provider: 'github' });
      const path = pathOf(await authorizeAt(link.body.redirectUrl));

      const res = await request(ctx().app).get(path);

      assert.ok(res.headers.location.startsWith('/auth/login?notice='));
      assert.equal(await ctx().models.OAuthAccount.count({ where: { userId: user.id } }), 0);
    });

    it('when the user cancels at the provider during linking, then the browser goes back to /admin/profile/security with the reason', async () => {
      const user = await makeUser();
      const link = await request(ctx().app).post('/auth/oauth/link').set('Authorization', `Bearer ${await tokenFor(user)}`).send({ provider: 'google' });
      const state = new URL(link.body.redirectUrl).searchParams.get('state');

      const res = await request(ctx().app).get(`/auth/oauth/google/callback?error=access_denied&state=${state}`).set('Cookie', bindingCookie(link));

      assert.equal(res.status, 200);
      assert.ok(landing(res).startsWith('/admin/profile/security?notice='));
      assert.match(query(landing(res), 'error') ?? '', /cancelled or failed/);
      assert.deepEqual(credentialCookies(res), []);
    });

    it('when the user signs out everywhere after linking started, then the callback links nothing and signs no one in', async () => {
      const user = await makeUser();
      const token = await tokenFor(user);
      stand.as('github', githubPerson());
      const link = await request(ctx().app).post('/auth/oauth/link').set('Authorization', `Bearer ${token}`).send({ provider: 'github' });
      const path = pathOf(await authorizeAt(link.body.redirectUrl));
      assert.equal((await request(ctx().app).post('/auth/logout-all').set('Authorization', `Bearer ${token}`)).status, 200);

      const res = await request(ctx().app).get(path).set('Cookie', bindingCookie(link));

      assert.ok(landing(res).startsWith('/admin/profile/security?notice='));
      assert.match(query(landing(res), 'error') ?? '', /Your sessions were ended after this GitHub link was started/);
      assert.deepEqual(credentialCookies(res), []);
      assert.equal(await ctx().models.OAuthAccount.count({ where: { userId: user.id } }), 0);
    });

    it('when the user was deactivated meanwhile, then the link is refused', async () => {
      const user = await makeUser();
      stand.as('github', githubPerson());
      const link = await request(ctx().app).post('/auth/oauth/link').set('Authorization', `Bearer ${await tokenFor(user)}`).send({ provider: 'github' });
      const path = pathOf(await authorizeAt(link.body.redirectUrl));
      await ctx().models.User.update({ active: false }, { where: { id: user.id } });

      const res = await request(ctx().app).get(path).set('Cookie', bindingCookie(link));

      assert.equal(query(landing(res), 'error'), 'Your account is not active');
      assert.deepEqual(credentialCookies(res), []);
    });

    it('when not signed in, then 401; unknown provider 404; disabled 400; bad body 400', async () => {
      const token = await tokenFor(await makeUser());
      assert.equal((await request(ctx().app).post('/auth/oauth/link').send({ provider: 'github' })).status, 401);
      const unknown = await request(ctx().app).post('/auth/oauth/link').set('Authorization', `Bearer ${token}`).send({ provider: 'gitlab' });
      assert.deepEqual([unknown.status, unknown.body], [404, { error: 'Unknown OAuth provider' }]);
      await configureProviders({ github: stand.settingsFor('github', false) });
      const disabled = await request(ctx().app).post('/auth/oauth/link').set('Authorization', `Bearer ${token}`).send({ provider: 'github' });
      assert.deepEqual([disabled.status, disabled.body], [400, { error: 'OAuth provider "github" is not configured or not enabled' }]);
      const invalid = await request(ctx().app).post('/auth/oauth/link').set('Authorization', `Bearer ${token}`).send({ provider: 'github', extra: 1 });
      assert.equal(invalid.status, 400);
    });

    it('when the profile page posts the link form with _csrf, then 302 to the provider; without _csrf 403; a refusal goes back to the page', async () => {
      const user = await makeUser();
      const { cookie, csrf } = await browserSession(user);

      const ok = await request(ctx().app).post('/auth/oauth/link').set('Cookie', cookie).type('form').send({ provider: 'google', _csrf: csrf });
      assert.equal(ok.status, 302);
      assert.ok(ok.headers.location.startsWith(`${stand.url}/google/authorize?`));
      assert.ok(bindingCookieOf(ok).value);

      const forged = await request(ctx().app).post('/auth/oauth/link').set('Cookie', cookie).type('form').send({ provider: 'google' });
      assert.equal(forged.status, 403);

      await configureProviders({ github: stand.settingsFor('github') });
      const refused = await request(ctx().app).post('/auth/oauth/link').set('Cookie', cookie).type('form').send({ provider: 'google', _csrf: csrf });
      assert.equal(refused.status, 302);
      assert.equal(query(refused.headers.location, 'error'), 'Google sign-in is not available.');
    });

    it('when a JSON client uses the cookie session, then the X-CSRF-Token header is required and the answer is JSON', async () => {
      const { cookie, csrf } = await browserSession(await makeUser());
      assert.equal((await request(ctx().app).post('/auth/oauth/link').set('Cookie', cookie).send({ provider: 'github' })).status, 403);
      const res = await request(ctx().app).post('/auth/oauth/link').set('Cookie', cookie).set('X-CSRF-Token', csrf).send({ provider: 'github' });
      assert.equal(res.status, 200);
      assert.ok(typeof res.body.redirectUrl === 'string');
    });
  });

  describe('GET /auth/oauth/accounts', () => {
    it('when the user has linked accounts, then they are listed with provider, account id, email and linkedAt; never a token', async () => {
      const user = await makeUser();
      const person = githubPerson(uniqueEmail('listed'));
      stand.as('github', person);
      await linkAs(user, 'github');
      stand.as('google', { sub: 'google-listed', email: uniqueEmail('g'), email_verified: true });
      await linkAs(user, 'google');

      const res = await request(ctx().app).get('/auth/oauth/accounts').set('Authorization', `Bearer ${await tokenFor(user)}`);

      assert.equal(res.status, 200);
      assert.equal(res.headers['cache-control'], 'no-store');
      assert.deepEqual(res.body.accounts.map((a: Record<string, unknown>) => [a.provider, a.providerAccountId, a.email]), [
        ['github', String(person.id), person.emails![0].email],
        ['google', 'google-listed', res.body.accounts[1].email],
      ]);
      assert.ok(!Number.isNaN(Date.parse(res.body.accounts[0].linkedAt)));
      assert.deepEqual(Object.keys(res.body.accounts[0]).sort(), ['email', 'linkedAt', 'provider', 'providerAccountId']);
    });

    it('when not signed in, then 401; when nothing is linked, then an empty list', async () => {
      assert.equal((await request(ctx().app).get('/auth/oauth/accounts')).status, 401);
      const res = await request(ctx().app).get('/auth/oauth/accounts').set('Authorization', `Bearer ${await tokenFor(await makeUser())}`);
      assert.deepEqual(res.body, { accounts: [] });
    });
  });

  describe('POST /auth/oauth/unlink', () => {
    it('when a user with a password unlinks their only link, then 200 { success: true } and an oauth.unlinked row', async () => {
      const user = await makeUser();
      stand.as('github', githubPerson());
      await linkAs(user, 'github');

      const res = await request(ctx().app).post('/auth/oauth/unlink').set('Authorization', `Bearer ${await tokenFor(user)}`).send({ provider: 'github' });

      assert.deepEqual([res.status, res.body], [200, { success: true }]);
      assert.equal(await ctx().models.OAuthAccount.count({ where: { userId: user.id } }), 0);
      const row = await ctx().models.ActivityLog.findOne({ where: { action: 'oauth.unlinked', userId: user.id } });
      assert.equal((row?.details as Record<string, unknown>).provider, 'github');
    });

    it('when a user without a password unlinks their only link, then 400 with the CONTRACT message and the link stays', async () => {
      stand.as('github', githubPerson());
      const { callback } = await signInWith(ctx().app, 'github');
      const userId = payloadOf(setCookies(callback).auth_token.value).sub as string;

      const res = await request(ctx().app).post('/auth/oauth/unlink').set('Authorization', `Bearer ${await tokenFor({ id: userId })}`).send({ provider: 'github' });

      assert.deepEqual([res.status, res.body], [400, { error: 'Cannot unlink the only authentication method. Set a password first.' }]);
      assert.equal(await ctx().models.OAuthAccount.count({ where: { userId } }), 1);
    });

    it('when a user without a password has two links, then one can go, and the last one cannot', async () => {
      const user = await makeUser({ password: null });
      stand.as('github', githubPerson());
      await linkAs(user, 'github');
      stand.as('google', { sub: `g-two-${user.id}`, email: uniqueEmail('g2'), email_verified: true });
      await linkAs(user, 'google');
      const auth = `Bearer ${await tokenFor(user)}`;

      assert.equal((await request(ctx().app).post('/auth/oauth/unlink').set('Authorization', auth).send({ provider: 'google' })).status, 200);
      assert.equal((await request(ctx().app).post('/auth/oauth/unlink').set('Authorization', auth).send({ provider: 'github' })).status, 400);
    });

    it('when the provider is not linked, then 404; unknown provider 404; not signed in 401', async () => {
      const auth = `Bearer ${await tokenFor(await makeUser())}`;
      const res = await request(ctx().app).post('/auth/oauth/unlink').set('Authorization', auth).send({ provider: 'google' });
      assert.deepEqual([res.status, res.body], [404, { error: 'No Google account is linked' }]);
      assert.equal((await request(ctx().app).post('/auth/oauth/unlink').set('Authorization', auth).send({ provider: 'x' })).status, 404);
      assert.equal((await request(ctx().app).post('/auth/oauth/unlink').send({ provider: 'github' })).status, 401);
    });

    it('when the profile page posts the unlink form, then 302 to /admin/profile/security with a message, or with the error', async () => {
      const user = await makeUser();
      stand.as('github', githubPerson());
      await linkAs(user, 'github');
      const { cookie, csrf } = await browserSession(user);

      const ok = await request(ctx().app).post('/auth/oauth/unlink').set('Cookie', cookie).type('form').send({ provider: 'github', _csrf: csrf });
      assert.equal(ok.status, 302);
      assert.equal(ok.headers.location, '/admin/profile/security?notice=github_unlinked');

      const again = await request(ctx().app).post('/auth/oauth/unlink').set('Cookie', cookie).type('form').send({ provider: 'github', _csrf: csrf });
      assert.equal(again.status, 302);
      assert.equal(query(again.headers.location, 'error'), 'No GitHub account is linked');

      const forged = await request(ctx().app).post('/auth/oauth/unlink').set('Cookie', cookie).type('form').send({ provider: 'github' });
      assert.equal(forged.status, 403);
    });
  });
});
