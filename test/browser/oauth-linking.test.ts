import assert from 'node:assert/strict';
import { ctx, uniqueEmail } from '../support/context';
import { browserSuite } from '../support/browser-suite';
import { makeUser } from '../support/auth';
import { signInThrough, submit } from '../support/admin-browser';
import { OAuthProviderStandIn, enableBoth } from '../support/oauth-provider';

describe('OAuth sign-in and account linking in a real browser', function () {
  this.timeout(120_000);
  let stand: OAuthProviderStandIn;

  before(async () => {
    stand = await new OAuthProviderStandIn().start();
    stand.mode = 'consent';
  });
  beforeEach(async () => {
    await enableBoth(stand);
  });
  /**
   * The app at http://localhost (redirect_uri must match where the browser is), and the provider stand-in at
   * 127.0.0.1: another site, as GitHub and Google are, so the SameSite rules of a real flow apply (the
   * provider's consent click is a cross-site navigation back to us).
   */
  const suite = browserSuite({ atLocalhost: true });
  after(async () => {
    await stand?.stop();
  });

  it('when a user links GitHub from their profile and unlinks it again, then the page shows the account, then the message, and the Link button comes back', async () => {
    const { page, server } = suite;
    const user = await makeUser({ role: 'author' });
    const githubEmail = uniqueEmail('browser-gh');
    stand.as('github', { id: 424_242, login: 'browser-linker', name: 'Browser Linker', emails: [{ email: githubEmail, primary: true, verified: true }] });
    await signInThrough(page, server.url, '/admin/profile/security', user.email);
    const section = page.locator('section', { has: page.getByRole('heading', { name: 'Linked accounts' }) });
    assert.equal(await section.getByText('No sign-in accounts are linked.').count(), 1);
    assert.ok(await page.getByRole('button', { name: 'Link Google', exact: true }).isVisible());

    await submit(page, 'Link GitHub');
    assert.equal(new URL(page.url()).origin, stand.url, 'the browser is at the provider');
    await submit(page, 'Authorize');
    // The callback answers with a page of ours that moves on by itself: a same-site navigation, which carries
    // the SameSite=Strict auth cookie the redirect chain from the provider would not.
    await page.waitForURL((url) => url.pathname === '/admin/profile/security');

    const landed = new URL(page.url());
    assert.equal(`${landed.origin}${landed.pathname}`, `${server.url}/admin/profile/security`);
    assert.equal(await page.getByRole('status').textContent(), 'GitHub account linked');
    assert.equal(await section.locator('tbody tr').count(), 1);
    assert.match((await section.locator('tbody tr').textContent()) ?? '', new RegExp(`GitHub\\s*${githubEmail.replace(/[.]/g, '\\.')}`));
    assert.equal(await page.getByRole('button', { name: 'Link GitHub', exact: true }).count(), 0);
    assert.equal(await ctx().models.OAuthAccount.count({ where: { userId: user.id, provider: 'github' } }), 1);

    await submit(page, 'Unlink GitHub');
    assert.equal(await page.getByRole('status').textContent(), 'GitHub account unlinked');
    assert.equal(await section.getByText('No sign-in accounts are linked.').count(), 1);
    assert.ok(await page.getByRole('button', { name: 'Link GitHub', exact: true }).isVisible());
    assert.equal(await ctx().models.OAuthAccount.count({ where: { userId: user.id } }), 0);
  });

  it('when a new person signs in with Google from the sign-in page, then they reach the admin site, and cannot unlink their only way in', async () => {
    const { page, server } = suite;
    await makeUser();
    stand.as('google', { sub: 'browser-google-1', email: uniqueEmail('browser-g'), email_verified: true, name: 'Gee Browser' });
    await page.goto(`${server.url}/auth/login`);
    assert.equal(await page.getByRole('link', { name: 'Sign in with GitHub' }).count(), 1);

    await Promise.all([page.waitForNavigation(), page.getByRole('link', { name: 'Sign in with Google' }).click()]);
    await submit(page, 'Authorize');
    assert.equal(new URL(page.url()).pathname, '/admin');

    await page.goto(`${server.url}/admin/profile/security`);
    await submit(page, 'Unlink Google');
    assert.equal(await page.getByRole('alert').textContent(), 'Cannot unlink the only authentication method. Set a password first.');
    assert.equal(await page.getByRole('button', { name: 'Unlink Google' }).count(), 1);
  });
});
