import assert from 'node:assert/strict';
import fs from 'node:fs';
import request from 'supertest';
import type { Page } from 'playwright-core';
import { buildApp, ctx } from '../support/context';
import { browserSuite } from '../support/browser-suite';
import { PASSWORD, makeUser } from '../support/auth';
import { screenshot, signInThrough, submit } from '../support/admin-browser';
import { assertAccessible } from '../support/axe';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const SECTIONS = [
  { path: '/admin/profile', link: 'Profile', h1: 'Your profile', cards: ['Your details', 'Change email'] },
  { path: '/admin/profile/security', link: 'Security', h1: 'Security', cards: ['Change password', 'Two-factor authentication', 'Passkeys', 'Linked accounts'] },
  { path: '/admin/profile/sessions', link: 'Sessions', h1: 'Sessions', cards: ['Sessions'] },
  { path: '/admin/profile/apps', link: 'Apps and API keys', h1: 'Apps and API keys', cards: ['Connected applications', 'API keys'] },
  { path: '/admin/profile/data', link: 'Your data', h1: 'Your data', cards: ['Download your data', 'Danger zone'] },
];

const sectionNav = (page: Page) => page.getByRole('navigation', { name: 'Account sections' });

/** The section link marked as the current page, by its text (one and only one). */
async function currentSection(page: Page): Promise<string> {
  const marked = sectionNav(page).locator('a[aria-current="page"]');
  assert.equal(await marked.count(), 1, 'exactly one section is marked current');
  return (await marked.textContent()) ?? '';
}

/** CONTRACT 6's account center in Chromium: sections with their own addresses, one section navigation, cards that answer on their section. */
describe('account center in a real browser', function () {
  this.timeout(180_000);
  const suite = browserSuite();

  it('when a user walks the section navigation by keyboard, then each section has its address, its cards, one current mark, and is WCAG 2.1 AA clean at 1280 and 375 px', async () => {
    const { page, server } = suite;
    const user = await makeUser({ role: 'author' });
    await signInThrough(page, server.url, '/admin/profile', user.email);
    const links = sectionNav(page).getByRole('list').getByRole('link');
    assert.deepEqual((await links.allTextContents()).map((text) => text.trim()), SECTIONS.map((section) => section.link));

    for (const section of SECTIONS) {
      const link = sectionNav(page).getByRole('link', { name: section.link, exact: true });
      await link.focus();
      await Promise.all([page.waitForURL((url) => url.pathname === section.path), page.keyboard.press('Enter')]);
      assert.equal(await page.locator('h1').textContent(), section.h1);
      assert.equal(await currentSection(page), section.link);
      for (const card of section.cards) assert.equal(await page.getByRole('heading', { name: card, exact: true, level: 2 }).count(), 1, `${section.path}: ${card}`);
      assert.equal(await page.locator('header nav a[aria-current="page"]').textContent(), 'Profile', 'the site menu marks Profile on every section');
      await assertAccessible(page, section.path);
      await screenshot(page, `account-${section.path.split('/').pop()}`);
    }
    // The danger zone is last on its page.
    assert.equal(await page.locator('main > section').last().getAttribute('class'), 'danger-zone');
    assert.equal(await page.locator('main > section').last().getByRole('button').last().textContent(), 'Delete my account');
  });

  it('when a card posts, then it answers on its own section: saved, or refused with the error beside the field', async () => {
    const { page, server } = suite;
    const user = await makeUser({ role: 'editor' });
    await signInThrough(page, server.url, '/admin/profile', user.email);

    // Profile: a refused save is drawn on Profile, a good one returns there.
    await page.getByLabel('Username').fill('');
    await submit(page, 'Save profile');
    assert.equal(await currentSection(page), 'Profile');
    assert.ok(await page.locator('[data-field=username] .field-error').isVisible());
    await page.getByLabel('Username').fill(`${user.username}x`);
    await submit(page, 'Save profile');
    assert.equal(new URL(page.url()).pathname, '/admin/profile');
    assert.equal(await page.getByRole('status').textContent(), 'Profile saved');

    // Security: a wrong current password is drawn on Security (the post's address), a right one returns there.
    await page.goto(`${server.url}/admin/profile/security`);
    await page.getByLabel('Current password').fill('not my password');
    await page.getByLabel('New password').fill('a brand new passphrase 4');
    await submit(page, 'Change password');
    assert.equal(await currentSection(page), 'Security');
    assert.equal(await page.locator('[data-field=currentPassword] .field-error').textContent(), 'is not your current password');
    await assertAccessible(page, 'security with a refused password');
    await screenshot(page, 'account-security-password-error');
    await page.getByLabel('Current password').fill(PASSWORD);
    await page.getByLabel('New password').fill('a brand new passphrase 4');
    await submit(page, 'Change password');
    assert.equal(new URL(page.url()).pathname, '/admin/profile/security');
    assert.match((await page.getByRole('status').textContent()) ?? '', /Password changed/);

    // Sessions: "Sign out everywhere else" returns to Sessions.
    await request(ctx().app).post('/auth/login').send({ email: user.email, password: 'a brand new passphrase 4' }).expect(200);
    await page.goto(`${server.url}/admin/profile/sessions`);
    await submit(page, 'Sign out everywhere else');
    assert.equal(new URL(page.url()).pathname, '/admin/profile/sessions');
    assert.equal(await page.getByRole('status').textContent(), 'Every other session has been signed out.');

    // Apps: a key made is shown once, then "I have copied it" and Revoke return to Apps.
    await page.goto(`${server.url}/admin/profile/apps`);
    await page.getByLabel('Key name').fill('CI');
    await submit(page, 'Create API key');
    assert.equal(await page.locator('h1').textContent(), 'API key created');
    await Promise.all([page.waitForURL((url) => url.pathname === '/admin/profile/apps'), page.getByRole('link', { name: 'I have copied it' }).click()]);
    await submit(page, 'Revoke API key CI');
    assert.equal(new URL(page.url()).pathname, '/admin/profile/apps');
    assert.equal(await page.getByRole('status').textContent(), 'API key revoked. It no longer works anywhere.');

    // Data: the export downloads; an unticked deletion is drawn on Your data, and nothing is deleted.
    await page.goto(`${server.url}/admin/profile/data`);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download my data' }).click()]);
    const exported = JSON.parse(fs.readFileSync((await download.path())!, 'utf8')) as { account?: { email?: string } };
    assert.equal(exported.account?.email, user.email);
    await submit(page, 'Delete my account');
    assert.equal(await currentSection(page), 'Your data');
    assert.equal(await page.locator('[data-field=confirmDelete] .field-error').textContent(), 'tick the box to confirm');
    await assertAccessible(page, 'data with a refused deletion');
    await screenshot(page, 'account-data-delete-unconfirmed');
    assert.ok(await ctx().models.User.findByPk(user.id));
  });

  it('when the two-factor enrolment page opens, then the section navigation shows it within Security, and it leads back there', async () => {
    const { page, server } = suite;
    const user = await makeUser({ role: 'author' });
    await signInThrough(page, server.url, '/admin/profile/security', user.email);
    await Promise.all([page.waitForURL((url) => url.pathname === '/admin/profile/two-factor'), page.getByRole('link', { name: 'Set up two-factor authentication' }).click()]);
    assert.equal(await sectionNav(page).locator('a[aria-current="true"]').textContent(), 'Security');
    assert.equal(await sectionNav(page).locator('a[aria-current="page"]').count(), 0, 'the page is not the Security page itself');
    await assertAccessible(page, '/admin/profile/two-factor');
    await Promise.all([page.waitForURL((url) => url.pathname === '/admin/profile/security'), page.getByRole('link', { name: '← Back to Security' }).click()]);
  });

  it('when JavaScript is off, then every section opens and a card still posts and returns to its section', async () => {
    const { server } = suite;
    const user = await makeUser({ role: 'viewer' });
    const page = await suite.open({ javaScriptEnabled: false });
    await signInThrough(page, server.url, '/admin/profile', user.email);
    for (const section of SECTIONS) {
      await page.goto(`${server.url}${section.path}`);
      assert.equal(await page.locator('h1').textContent(), section.h1);
    }
    await page.goto(`${server.url}/admin/profile`);
    await page.getByLabel('Last name').fill('Offline');
    await submit(page, 'Save profile');
    assert.equal(new URL(page.url()).pathname, '/admin/profile');
    assert.equal(await page.getByRole('status').textContent(), 'Profile saved');
  });

  it("when an admin opens a user's edit page, then its cards are grouped as the account center groups them, the danger zone last, and it is WCAG 2.1 AA clean", async () => {
    const { page, server } = suite;
    const admin = await makeUser({ role: 'admin' });
    const user = await makeUser({ role: 'editor' });
    const token = (await request(ctx().app).post('/auth/login').send({ email: user.email, password: PASSWORD }).expect(200)).body.token as string;
    await request(ctx().app).post('/auth/api-keys').set('Authorization', `Bearer ${token}`).send({ name: 'Nightly export', permissions: [] }).expect(201);
    await signInThrough(page, server.url, `/admin/users/${user.id}/edit`, admin.email);

    assert.deepEqual(await page.locator('main h2').allTextContents(), ['Account', 'Security', 'Sessions', 'Keys', 'Danger zone']);
    assert.match((await page.locator('section', { has: page.getByRole('heading', { name: 'Keys', level: 2 }) }).textContent()) ?? '', /Nightly export/);
    assert.equal(await page.getByRole('navigation', { name: 'User sections' }).getByRole('link').count(), 4);
    await assertAccessible(page, 'the users edit page');
    await screenshot(page, 'users-edit-grouped');
    await submit(page, 'Sign out all sessions');
    assert.equal(new URL(page.url()).pathname, `/admin/users/${user.id}/edit`);
    assert.equal(await page.getByRole('status').textContent(), 'Every session of this user has been signed out.');
  });
});

describe('account center step-up in a real browser', function () {
  this.timeout(120_000);
  // A step-up age of 3 seconds, so the prompt can be reached by waiting.
  const suite = browserSuite({ app: () => buildApp({ env: { STEP_UP_MAX_AGE: '3s' } }) });

  it('when a sign-in has grown old, then a card step-up action goes to the prompt and comes back to its section, where it then works', async () => {
    const { page, server } = suite;
    const user = await makeUser({ role: 'author' });
    await request(ctx().app).post('/auth/login').send({ email: user.email, password: PASSWORD }).expect(200);
    await signInThrough(page, server.url, '/admin/profile/sessions', user.email);
    assert.equal(await page.locator('section', { has: page.getByRole('heading', { name: 'Sessions', level: 2 }) }).locator('tbody tr').count(), 2);
    // auth_time is whole seconds: 4.5 s later the sign-in is past STEP_UP_MAX_AGE (3 s) however the seconds fell.
    await sleep(4500);
    await submit(page, 'Sign out everywhere else');
    assert.equal(new URL(page.url()).pathname, '/auth/step-up');
    await page.getByLabel('Password').fill(PASSWORD);
    await submit(page, 'Confirm with password');
    assert.equal(new URL(page.url()).pathname, '/admin/profile/sessions');
    assert.equal(await currentSection(page), 'Sessions');
    await submit(page, 'Sign out everywhere else');
    assert.equal(new URL(page.url()).pathname, '/admin/profile/sessions');
    assert.equal(await page.getByRole('status').textContent(), 'Every other session has been signed out.');
  });
});
