import assert from 'node:assert/strict';
import request from 'supertest';
import type { Page } from 'playwright-core';
import { buildApp, ctx } from '../support/context';
import { serve, type Served } from '../support/browser';
import { browserSuite } from '../support/browser-suite';
import { makeUser } from '../support/auth';
import { screenshot, signInThrough, submit } from '../support/admin-browser';

/** CONTRACT 11's pages: the "API keys" card of /admin/profile/apps and the "Signing keys" card of /admin/settings/security. */
describe('API keys and signing keys cards in a real browser', function () {
  this.timeout(120_000);
  const suite = browserSuite({ viewport: { width: 1280, height: 900 } });
  let asymmetric: Served;

  before(async () => {
    asymmetric = await serve(buildApp({ env: { JWT_ALGORITHM: 'EdDSA' } }));
  });
  after(async () => {
    await asymmetric?.close();
  });

  const card = (p: Page, name: string) => p.locator('section', { has: p.getByRole('heading', { name, exact: true }) });

  it('when a user makes a key with some permissions and an expiry, then it is shown once, works, is listed without it, and Revoke ends it', async () => {
    const { page, server } = suite;
    const user = await makeUser({ role: 'editor' });
    await signInThrough(page, server.url, '/admin/profile/apps', user.email);
    const keys = card(page, 'API keys');
    assert.match((await keys.textContent()) ?? '', /No API keys yet/);

    await keys.getByLabel('Key name').fill('Deploy bot');
    await keys.getByLabel('publish:content').uncheck();
    await keys.getByLabel('edit:any-content').uncheck();
    await keys.getByLabel('Expires after (days)').fill('30');
    await keys.scrollIntoViewIfNeeded();
    await screenshot(page, 'profile-api-keys-form');
    await submit(page, 'Create API key');

    assert.equal(await page.locator('h1').textContent(), 'API key created');
    const key = await page.getByLabel('API key', { exact: true }).inputValue();
    assert.match(key, /^ak_[A-Za-z0-9_-]{43}$/);
    await screenshot(page, 'profile-api-key-created');
    const me = await request(ctx().app).get('/auth/me').set('X-API-Key', key);
    assert.equal(me.body.user.id, user.id);
    const published = await request(ctx().app).post('/api/content').set('X-API-Key', key).send({ title: 'x', body: 'y', status: 'published' });
    assert.equal(published.status, 403, 'publish:content was unticked');

    await Promise.all([page.waitForURL((url) => url.pathname === '/admin/profile/apps'), page.getByRole('link', { name: 'I have copied it' }).click()]);
    const row = card(page, 'API keys').locator('tbody tr');
    assert.equal(await row.count(), 1);
    const text = (await row.textContent()) ?? '';
    assert.match(text, /Deploy bot/);
    assert.match(text, new RegExp(key.slice(0, 9)));
    assert.ok(!text.includes(key.slice(9)), 'the card never shows the key again');

    await submit(page, 'Revoke API key Deploy bot');
    assert.equal(await page.getByRole('status').textContent(), 'API key revoked. It no longer works anywhere.');
    assert.equal((await request(ctx().app).get('/auth/me').set('X-API-Key', key)).status, 401);
  });

  it('when the form is sent without a name, then it comes back with the error beside the field and the ticks kept', async () => {
    const { page, server } = suite;
    const user = await makeUser({ role: 'author' });
    await signInThrough(page, server.url, '/admin/profile/apps', user.email);
    const keys = card(page, 'API keys');
    await keys.getByLabel('create:content').uncheck();
    await submit(page, 'Create API key');

    assert.equal(await page.locator('h1').textContent(), 'New API key');
    assert.equal(await page.locator('#api-key-name-error').textContent(), 'is required');
    assert.equal(await page.getByLabel('create:content').isChecked(), false);
    assert.equal(await page.getByLabel('access:admin').isChecked(), true);
    assert.equal(await ctx().models.ApiKey.count({ where: { userId: user.id } }), 0);
  });

  it('when an admin rotates the signing key on the security page, then the new key signs and the old one is listed as verifying only', async () => {
    const { page } = suite;
    const admin = await makeUser({ role: 'admin' });
    await signInThrough(page, asymmetric.url, '/admin/settings/security', admin.email);
    const keys = card(page, 'Signing keys');
    assert.match((await keys.textContent()) ?? '', /Algorithm: EdDSA/);
    const before = await keys.locator('tbody tr').count();

    await submit(page, 'Rotate signing keys');

    assert.match((await page.getByRole('status').textContent()) ?? '', /New signing keys made/);
    const rows = card(page, 'Signing keys').locator('tbody tr');
    // The service's new key and the OpenID Provider's two (CONTRACT 14), the replaced ones verifying only.
    assert.equal(await rows.count(), before + 3);
    assert.match((await rows.nth(0).textContent()) ?? '', /Signing/);
    assert.match((await rows.nth(1).textContent()) ?? '', /Verifying only/);
    await card(page, 'Signing keys').scrollIntoViewIfNeeded();
    await screenshot(page, 'security-signing-keys');
  });

  it('when the algorithm is HS256, then the card names JWT_SECRET and rotation rotates the OpenID Provider\'s keys', async () => {
    const { page, server } = suite;
    const admin = await makeUser({ role: 'admin' });
    await signInThrough(page, server.url, '/admin/settings/security', admin.email);
    const keys = card(page, 'Signing keys');
    assert.match((await keys.textContent()) ?? '', /signed with JWT_SECRET/);
    const before = await keys.locator('tbody tr').count();

    await submit(page, 'Rotate signing keys');

    assert.match((await page.getByRole('status').textContent()) ?? '', /New OpenID Provider signing keys made/);
    assert.equal(await card(page, 'Signing keys').locator('tbody tr').count(), before + 2);
  });
});
