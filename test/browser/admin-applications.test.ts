import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { ctx } from '../support/context';
import { browserSuite } from '../support/browser-suite';
import request from 'supertest';
import { makeUser, tokenFor } from '../support/auth';
import { screenshot, signInThrough, submit } from '../support/admin-browser';
import { assertAccessible } from '../support/axe';
import { hashClientSecret } from '../../src/services/oidc-provider/oauth-clients.service';

/** CONTRACT 14's page /admin/settings/applications: list, add, edit, new secret, delete, in real Chromium. */
describe('OpenID Provider applications page in a real browser', function () {
  this.timeout(120_000);
  const suite = browserSuite({ viewport: { width: 1280, height: 900 } });
  const PAGE = '/admin/settings/applications';

  const card = (p: Page, name: string) => p.locator('section', { has: p.getByRole('heading', { name, exact: true }) });
  const rowOf = (p: Page, name: string) => card(p, 'Registered applications').locator('tbody tr', { hasText: name });

  it('when an admin adds a confidential application, then its secret is shown once, it is listed without it, and the page passes axe', async () => {
    const { page, server } = suite;
    const admin = await makeUser({ role: 'admin' });
    await signInThrough(page, server.url, PAGE, admin.email);
    assert.equal(await page.locator('header nav a[aria-current="page"]').textContent(), 'Settings', 'the site menu marks Settings');
    await assertAccessible(page, 'applications page');

    const name = `Wiki ${Date.now()}`;
    const add = card(page, 'Add an application');
    await add.getByLabel('Name').fill(name);
    await add.getByLabel('Redirect URIs *', { exact: true }).fill('https://wiki.example.test/callback\nhttp://127.0.0.1:8080/callback');
    await add.getByLabel('Post-logout redirect URIs').fill('https://wiki.example.test/');
    await add.getByLabel('offline_access').uncheck();
    await screenshot(page, 'admin-settings-applications-form');
    await submit(page, 'Add application');

    assert.equal(await page.locator('h1').textContent(), 'Application added');
    const clientId = await page.getByLabel('Client ID').inputValue();
    const secret = await page.getByLabel('Client secret').inputValue();
    assert.match(secret, /^cs_/);
    const row = await ctx().models.OAuthClient.findByPk(clientId, { rejectOnEmpty: true });
    assert.equal(row.secretHash, hashClientSecret(secret));
    assert.deepEqual(row.redirectUris, ['https://wiki.example.test/callback', 'http://127.0.0.1:8080/callback']);
    assert.deepEqual(row.allowedScopes, ['openid', 'profile', 'email']);
    await assertAccessible(page, 'secret page');
    await screenshot(page, 'admin-settings-application-secret');

    await Promise.all([page.waitForURL((url) => url.pathname === `${PAGE}/${clientId}`), page.getByRole('link', { name: 'I have copied it' }).click()]);
    assert.ok(!(await page.content()).includes(secret), 'the edit page never shows the secret');
    await page.goto(`${server.url}${PAGE}`);
    assert.match((await rowOf(page, name).textContent()) ?? '', new RegExp(clientId));
    assert.ok(!(await page.content()).includes(secret), 'the list never shows the secret');
    await screenshot(page, 'admin-settings-applications');
  });

  it('when a redirect URI breaks the rule, then the form comes back with the line named beside the field and the typed values kept; corrected as a public application, it is added without a secret', async () => {
    const { page, server } = suite;
    const admin = await makeUser({ role: 'admin' });
    await signInThrough(page, server.url, PAGE, admin.email);
    const before = await ctx().models.OAuthClient.count();
    const add = card(page, 'Add an application');
    await add.getByLabel('Name').fill('Broken app');
    await add.getByLabel('Redirect URIs *', { exact: true }).fill('https://ok.example.test/cb\nhttp://evil.example.test/cb#x');
    await submit(page, 'Add application');

    assert.equal(await page.locator('h1').textContent(), 'Applications');
    assert.equal(await page.getByRole('alert').first().textContent(), 'The application was not added: correct the marked fields.');
    assert.match((await page.locator('[data-field="redirectUris"] .field-error').textContent()) ?? '', /^line 2: /);
    assert.equal(await card(page, 'Add an application').getByLabel('Name').inputValue(), 'Broken app');
    assert.equal(await card(page, 'Add an application').getByLabel('Redirect URIs *', { exact: true }).inputValue(), 'https://ok.example.test/cb\nhttp://evil.example.test/cb#x');
    assert.equal(await ctx().models.OAuthClient.count(), before);
    await assertAccessible(page, 'applications page with errors');
    await screenshot(page, 'admin-settings-applications-errors');

    // Corrected as a public (native) application: no secret to show, so the answer is its edit page.
    await card(page, 'Add an application').getByLabel('Redirect URIs *', { exact: true }).fill('com.example.broken:/callback');
    await card(page, 'Add an application').getByLabel('Public application (no secret)').check();
    await submit(page, 'Add application');
    assert.equal(await page.getByRole('status').textContent(), 'Application added. It is public: it has no secret, and signs in with PKCE alone.');
    assert.match((await page.textContent('main')) ?? '', /Public \(PKCE only, no secret\)/);
    assert.equal(await page.getByRole('button', { name: 'New secret' }).count(), 0);
    const made = await ctx().models.OAuthClient.findOne({ where: { name: 'Broken app' }, rejectOnEmpty: true });
    assert.equal(made.secretHash, null);
    assert.equal(new URL(page.url()).pathname, `${PAGE}/${made.clientId}`);
  });

  it('when an admin edits an application, gives it a new secret and deletes it, then each shows its outcome and the row follows', async () => {
    const { page, server } = suite;
    const admin = await makeUser({ role: 'admin' });
    const made = (await request(ctx().app).post('/api/oauth-clients').set('Authorization', `Bearer ${await tokenFor(admin)}`).send({ name: `Tracker ${Date.now()}`, redirectUris: ['https://tracker.example.test/cb'] })).body;
    const id = made.client.clientId as string;
    await signInThrough(page, server.url, `${PAGE}/${id}`, admin.email);
    await assertAccessible(page, 'edit page');
    await screenshot(page, 'admin-settings-application-edit');

    await page.getByLabel('Name').fill('Issue tracker');
    await page.getByLabel('First-party application (never asks for consent)').check();
    await submit(page, 'Save');
    assert.equal(await page.getByRole('status').textContent(), 'Application saved.');
    const saved = await ctx().models.OAuthClient.findByPk(id, { rejectOnEmpty: true });
    assert.equal(saved.name, 'Issue tracker');
    assert.equal(saved.firstParty, true);

    await submit(page, 'New secret');
    assert.equal(await page.locator('h1').textContent(), 'New secret');
    const secret = await page.getByLabel('Client secret').inputValue();
    assert.notEqual(secret, made.clientSecret);
    assert.equal((await ctx().models.OAuthClient.findByPk(id, { rejectOnEmpty: true })).secretHash, hashClientSecret(secret));

    await page.goto(`${server.url}${PAGE}/${id}`);
    await submit(page, 'Delete application');
    assert.equal(await page.locator('[data-field="confirm"] .field-error').textContent(), 'Tick the box to confirm the deletion');
    assert.ok(await ctx().models.OAuthClient.findByPk(id), 'not deleted without the tick');
    await page.getByLabel('Yes, delete Issue tracker').check();
    await submit(page, 'Delete application');
    assert.equal(new URL(page.url()).pathname, PAGE);
    assert.equal(await page.getByRole('status').textContent(), 'Application deleted. Every token it held has ended.');
    assert.equal(await ctx().models.OAuthClient.findByPk(id), null);
  });

  it('when an editor opens the page, then it is refused like every settings page', async () => {
    const { page, server } = suite;
    const editor = await makeUser({ role: 'editor' });
    await signInThrough(page, server.url, '/admin/profile', editor.email);
    await page.goto(`${server.url}${PAGE}`);
    assert.equal(new URL(page.url()).pathname, '/auth/login');
  });
});
