import assert from 'node:assert/strict';
import { ctx } from '../support/context';
import { browserSuite } from '../support/browser-suite';
import { PASSWORD, makeUser } from '../support/auth';
import { screenshot, signInThrough, submit } from '../support/admin-browser';

describe('admin profile page and a viewer in a real browser', function () {
  this.timeout(120_000);
  const suite = browserSuite();

  it('when a viewer signs in, then the menu shows Profile only and every other admin page sends them to sign-in', async () => {
    const { page, server } = suite;
    const viewer = await makeUser({ role: 'viewer' });
    await signInThrough(page, server.url, '/admin', viewer.email);
    assert.deepEqual(await page.locator('header nav a').allTextContents(), ['Profile']);
    await screenshot(page, 'dashboard-viewer');
    for (const path of ['/admin/users', '/admin/content', '/admin/collections', '/admin/activity']) {
      await page.goto(`${server.url}${path}`);
      assert.equal(new URL(page.url()).pathname, '/auth/login', path);
      assert.equal(await page.getByRole('alert').textContent(), 'Insufficient permissions');
    }
    await page.goto(`${server.url}/admin/profile`);
    assert.equal(await page.locator('h1').textContent(), 'Your profile');
  });

  it('when a user edits their profile and changes their password, then both are saved and the new password signs in', async () => {
    const { page, server } = suite;
    const user = await makeUser({ role: 'author' });
    await signInThrough(page, server.url, '/admin/profile', user.email);
    await screenshot(page, 'profile');
    await page.getByLabel('First name').fill('<b>Grace</b>');
    await page.getByLabel('Website').fill('https://example.com/grace');
    await page.getByLabel('Date of birth').fill('1906-12-09');
    await submit(page, 'Save profile');
    assert.equal(await page.getByRole('status').textContent(), 'Profile saved');
    assert.equal(await page.getByLabel('First name').inputValue(), '<b>Grace</b>');
    assert.equal(await page.getByLabel('Date of birth').inputValue(), '1906-12-09');
    const profile = await ctx().models.UserProfile.findByPk(user.id, { rejectOnEmpty: true });
    assert.equal(profile.dateOfBirth, Date.UTC(1906, 11, 9) / 1000);

    await page.getByRole('navigation', { name: 'Account sections' }).getByRole('link', { name: 'Security' }).click();
    await page.waitForURL((url) => url.pathname === '/admin/profile/security');
    await page.getByLabel('Current password').fill('wrong password');
    await page.getByLabel('New password').fill('a new secret phrase');
    await submit(page, 'Change password');
    assert.equal(await page.locator('[data-field=currentPassword] .field-error').textContent(), 'is not your current password');
    assert.equal(await page.getByLabel('New password').inputValue(), '');
    await screenshot(page, 'profile-password-error');

    await page.getByLabel('Current password').fill(PASSWORD);
    await page.getByLabel('New password').fill('a new secret phrase');
    await submit(page, 'Change password');
    assert.match(await page.getByRole('status').textContent() ?? '', /Password changed/);
    assert.equal(await page.locator('h1').textContent(), 'Security', 'this browser stays signed in');

    await submit(page, 'Sign out');
    assert.equal(new URL(page.url()).pathname, '/auth/login');
    await signInThrough(page, server.url, '/admin/profile', user.email, 'a new secret phrase');
  });
});
