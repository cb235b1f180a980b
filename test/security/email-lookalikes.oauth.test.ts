import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import type { Response } from 'supertest';
import { ctx } from '../support/context';
import { makeUser, payloadOf, setCookies } from '../support/auth';
import { OAuthProviderStandIn, enableBoth, signInWith, type GitHubPerson } from '../support/oauth-provider';
import { foreignSpellings, lookalikes } from '../support/lookalikes';

// Issue 26, finding 1, as it was found: a provider-verified look-alike ("admin@exämple.com") was linked
// to, and signed in as, "admin@example.com". A provider address is held to the one email rule: one that
// fails it is no usable email (the no-email answer), never a near match and never a new account. Run
// with and without DATABASE_URL / REDIS_URL.

let nextId = 70_000;

function githubPerson(email: string): GitHubPerson {
  nextId += 1;
  return { id: nextId, login: `octo${nextId}`, name: 'Octo Cat', email: null, emails: [{ email, primary: true, verified: true, visibility: 'private' }] };
}

function googlePerson(email: string) {
  return { sub: `g-${crypto.randomUUID()}`, email, email_verified: true, name: 'G User' };
}

/** A refused callback: back to the sign-in page, no session cookie. */
function assertRefused(callback: Response, label: string): void {
  assert.equal(callback.status, 302, label);
  assert.ok(callback.headers.location.startsWith('/auth/login?'), `${label}: ${callback.headers.location}`);
  assert.equal(setCookies(callback).auth_token, undefined, label);
}

describe('email look-alikes: OAuth sign-in with a provider-verified address', () => {
  let stand: OAuthProviderStandIn;

  before(async () => {
    stand = await new OAuthProviderStandIn().start();
  });
  after(async () => {
    await stand.stop();
  });
  beforeEach(async () => {
    await enableBoth(stand);
    await ctx().models.Setting.destroy({ where: { key: 'security.allowRegistration' } });
  });

  it('when GitHub or Google verified a look-alike of an admin\'s address, then the callback refuses it: no sign-in as the admin, no link, no new account', async () => {
    const set = lookalikes();
    const admin = await makeUser({ email: set.real, role: 'admin' });
    for (const [name, email] of foreignSpellings(set)) {
      for (const provider of ['github', 'google'] as const) {
        if (provider === 'github') stand.as('github', githubPerson(email));
        else stand.as('google', googlePerson(email));
        const { callback } = await signInWith(ctx().app, provider);
        assertRefused(callback, `${provider} ${name}`);
      }
    }
    assert.equal(await ctx().models.OAuthAccount.count({ where: { userId: admin.id } }), 0);
    const accounts = await ctx().models.User.findAll({ attributes: ['id', 'email'] });
    const created = accounts.filter((user) => foreignSpellings(set).some(([, email]) => user.email === email));
    assert.deepEqual(created, [], 'no account was made for a look-alike');
  });

  it('when the only verified GitHub address is a look-alike and the public one is the admin\'s (unverified), then nothing links', async () => {
    const set = lookalikes();
    const admin = await makeUser({ email: set.real, role: 'admin' });
    stand.as('github', { ...githubPerson(set.accent), email: set.real });
    const { callback } = await signInWith(ctx().app, 'github');
    assertRefused(callback, 'github');
    assert.equal(await ctx().models.OAuthAccount.count({ where: { userId: admin.id } }), 0);
  });

  it('when the provider verified the address in another case, then it is the same account (SPEC 4.3 rule 2 links it)', async () => {
    const set = lookalikes();
    const user = await makeUser({ email: set.real });
    stand.as('google', googlePerson(set.upper));
    const { callback } = await signInWith(ctx().app, 'google');
    assert.equal(callback.status, 302);
    assert.equal(callback.headers.location, '/admin');
    assert.equal(payloadOf(setCookies(callback).auth_token.value).sub, user.id);
  });

  it('when an account is stored under a look-alike, then the provider-verified real address gets its own account, not that one', async () => {
    const set = lookalikes();
    const squatter = await makeUser({ email: set.accent });
    stand.as('github', githubPerson(set.real));
    const { callback } = await signInWith(ctx().app, 'github');
    assert.equal(callback.status, 302, callback.headers.location);
    assert.equal(callback.headers.location, '/admin');
    const sub = payloadOf(setCookies(callback).auth_token.value).sub as string;
    assert.notEqual(sub, squatter.id);
    assert.equal((await ctx().models.User.findByPk(sub))?.email, set.real);
    assert.equal(await ctx().models.OAuthAccount.count({ where: { userId: squatter.id } }), 0);
  });
});
