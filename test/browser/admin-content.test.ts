import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { ctx } from '../support/context';
import { browserSuite } from '../support/browser-suite';
import { makeUser } from '../support/auth';
import { screenshot, signInThrough, submit } from '../support/admin-browser';

const HOSTILE = '<script>window.__xss=1;alert(1)</script>';

describe('admin content, collections and activity pages in a real browser', function () {
  this.timeout(120_000);
  const suite = browserSuite();

  it("when an admin manages collections and reads the activity log, then hostile names stay text", async () => {
    const { page, server } = suite;
    const admin = await makeUser({ role: 'admin' });
    await signInThrough(page, server.url, '/admin/collections', admin.email);
    const name = `Guides ${crypto.randomBytes(3).toString('hex')} ${HOSTILE}`;
    await page.getByLabel('Name').fill(name);
    await page.getByLabel('Description').fill('How-to articles');
    await submit(page, 'Create collection');
    assert.match(await page.getByRole('status').textContent() ?? '', /^Collection created$/);
    assert.equal(await page.getByRole('link', { name }).count(), 1);
    await screenshot(page, 'collections-list');

    await page.getByRole('link', { name }).click();
    await page.waitForURL('**/admin/collections/*/edit');
    await page.getByLabel('Description').fill('Step by step');
    await screenshot(page, 'collections-edit');
    await submit(page, 'Save');
    assert.match(await page.getByRole('status').textContent() ?? '', /saved/);

    await page.goto(`${server.url}/admin/activity`);
    await page.getByLabel('Action').selectOption('auth.login');
    await submit(page, 'Filter');
    assert.ok((await page.locator('tbody tr').count()) >= 1);
    assert.equal(await page.locator('tbody tr').first().locator('td').nth(1).textContent(), 'auth.login');
    await screenshot(page, 'activity');
  });

  it("when an author writes, then Status stops at Review, the item saves, and Delete is not offered", async () => {
    const { page, server } = suite;
    const author = await makeUser({ role: 'author' });
    await signInThrough(page, server.url, '/admin/content/new', author.email);
    const options = await page.getByLabel('Status').locator('option').allTextContents();
    assert.deepEqual(options, ['Draft', 'Review']);
    await page.getByLabel('Title').fill('');
    await page.getByLabel('Body').fill(HOSTILE);
    await submit(page, 'Create');
    assert.equal(await page.locator('[data-field=title] .field-error').textContent(), 'is required');
    assert.equal(await page.getByLabel('Body').inputValue(), HOSTILE);
    await screenshot(page, 'content-new-errors');

    const title = `Release notes ${crypto.randomBytes(3).toString('hex')}`;
    await page.getByLabel('Title').fill(title);
    await page.getByLabel('Status').selectOption('review');
    await submit(page, 'Create');
    assert.equal(await page.getByRole('status').textContent(), 'Content created');
    assert.deepEqual(await page.getByLabel('Status').locator('option').allTextContents(), ['Draft', 'Review']);
    assert.equal(await page.getByRole('button', { name: 'Delete' }).count(), 0);
    await screenshot(page, 'content-edit-author');
    const stored = await ctx().models.Content.findOne({ where: { title }, rejectOnEmpty: true });
    assert.equal(stored.status, 'review');
    assert.equal(stored.body, HOSTILE);

    await page.goto(`${server.url}/admin/content`);
    await page.getByLabel('Status').selectOption('review');
    await submit(page, 'Filter');
    assert.equal(await page.getByRole('link', { name: title }).count(), 1);
    await screenshot(page, 'content-list');
    // The menu of an author: Content and Profile only.
    assert.deepEqual(await page.locator('header nav a').allTextContents(), ['Content', 'Profile']);
    await page.goto(`${server.url}/admin/users`);
    assert.equal(new URL(page.url()).pathname, '/auth/login');
    assert.equal(await page.getByRole('alert').textContent(), 'Insufficient permissions');
  });

  it('when an editor publishes, then every status is offered and the item is published', async () => {
    const { page, server } = suite;
    const editor = await makeUser({ role: 'editor' });
    const item = await ctx().models.Content.create({ id: crypto.randomUUID(), title: `Draft by someone ${crypto.randomBytes(3).toString('hex')}`, body: 'b', status: 'review', authorId: null, collectionId: null });
    await signInThrough(page, server.url, `/admin/content/${item.id}/edit`, editor.email);
    assert.deepEqual(await page.getByLabel('Status').locator('option').allTextContents(), ['Draft', 'Review', 'Published']);
    await page.getByLabel('Status').selectOption('published');
    await submit(page, 'Save');
    assert.equal(await page.getByRole('status').textContent(), 'Changes saved');
    assert.equal((await ctx().models.Content.findByPk(item.id, { rejectOnEmpty: true })).status, 'published');
    await screenshot(page, 'content-edit-editor');
  });
});
