import assert from 'node:assert/strict';
import { browserSuite } from '../support/browser-suite';
import { makeUser } from '../support/auth';
import { screenshot, signInThrough, submit } from '../support/admin-browser';
import { assertAccessible } from '../support/axe';
import { connectThroughPages, listeningProvider, registerClient, relyingParty } from '../support/oidc-relying-party';

/** CONTRACT 14's "Connected applications" card of /admin/profile/apps, in Chromium, with openid-client as the application. */
describe('connected applications card in a real browser', function () {
  this.timeout(120_000);
  const suite = browserSuite();
  let provider: Awaited<ReturnType<typeof listeningProvider>>;
  const redirectUri = 'http://127.0.0.1:9/cb';

  before(async () => {
    provider = await listeningProvider();
  });
  after(() => provider.close());

  const card = () => suite.page.locator('section', { has: suite.page.getByRole('heading', { name: 'Connected applications', exact: true }) });

  it('when a user connected an application, then the card names it and what it may read; Remove ends its tokens and the card says so', async () => {
    const { page, server } = suite;
    const user = await makeUser({ role: 'viewer' });
    const registered = await registerClient({ redirectUri });
    const client = await relyingParty(provider.base, { ...registered, redirectUri });
    const tokens = await connectThroughPages(provider.base, client, { email: user.email, redirectUri });

    await signInThrough(page, server.url, '/admin/profile/apps', user.email);
    const row = card().locator('tbody tr');
    assert.equal(await row.count(), 1);
    const text = (await row.textContent()) ?? '';
    assert.match(text, /Sample wiki/);
    assert.match(text, /See your email address/);
    assert.match(text, /Stay signed in when you are not using it/);
    await assertAccessible(page, 'apps section with a connected application');
    await screenshot(page, 'account-apps-connected');

    await submit(page, 'Remove Sample wiki');
    assert.equal(new URL(page.url()).pathname, '/admin/profile/apps');
    assert.equal(await page.getByRole('status').textContent(), 'Access removed. The application must ask you again to sign you in.');
    assert.match((await card().textContent()) ?? '', /No connected applications/);
    await assert.rejects(client.refresh(tokens.refresh_token as string), /invalid_grant/);
  });
});
