import assert from 'node:assert/strict';
import { buildApp, ctx, uniqueEmail } from '../support/context';
import { browserSuite } from '../support/browser-suite';
import { makeUser } from '../support/auth';
import { screenshot, signInThrough, submit } from '../support/admin-browser';
import { defineUserProfile } from '../../src/profiles/profile-definition';

const HOSTILE = '<img src=x onerror="window.__xss=1;alert(1)">';

const definition = defineUserProfile({
  fields: [
    { name: 'team', label: 'Team', type: 'string', validation: { pattern: '^[a-z]+$' } },
    { name: 'seats', label: 'Seats', type: 'number', validation: { min: 1, max: 10 } },
    { name: 'newsletter', label: 'Newsletter', type: 'boolean' },
    { name: 'plan', label: 'Plan', type: 'select', options: ['free', 'pro'] },
    { name: 'size', label: 'Size', type: 'radio', options: ['s', 'm', 'l'] },
    { name: 'topics', label: 'Topics', type: 'multiselect', options: ['api', 'ui', 'ops'] },
    { name: 'about', label: 'About', type: 'textarea' },
    { name: 'prefs', label: 'Preferences (JSON)', type: 'json' },
    { name: 'address', label: 'Address', type: 'object', fields: [{ name: 'city', label: 'City', type: 'string' }] },
    { name: 'internalNotes', label: 'Internal notes', type: 'textarea', hidden: true },
  ],
});

describe('admin user pages in a real browser', function () {
  this.timeout(120_000);
  const suite = browserSuite({ app: () => buildApp({ profileDefinition: definition }) });

  it('when an admin signs in from /admin/users, creates, searches and edits a user, then every step shows on the page', async () => {
    const { page, server } = suite;
    const admin = await makeUser({ role: 'admin' });
    await signInThrough(page, server.url, '/admin/users', admin.email);

    await page.goto(`${server.url}/admin`);
    assert.equal(await page.locator('h1').textContent(), 'Dashboard');
    await screenshot(page, 'dashboard-admin');

    await page.goto(`${server.url}/admin/users`);
    await page.getByRole('link', { name: 'New user' }).click();
    await page.waitForURL('**/admin/users/new');
    await screenshot(page, 'users-new');
    const email = uniqueEmail('browser');
    await page.getByLabel('Email').fill('not an email');
    await page.getByLabel('Password').fill('a long password');
    await page.getByLabel('First name').fill(HOSTILE);
    await page.getByLabel('Role').selectOption('author');
    await submit(page, 'Create user');
    assert.equal(await page.locator('[data-field=email] .field-error').textContent(), 'must be a valid email address');
    assert.equal(await page.getByLabel('First name').inputValue(), HOSTILE);
    assert.equal(await page.getByLabel('Password').inputValue(), '', 'the password is never sent back');
    await screenshot(page, 'users-new-errors');

    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('a long password');
    await submit(page, 'Create user');
    assert.match(await page.getByRole('status').textContent() ?? '', /^User created$/);
    const created = await ctx().models.User.findOne({ where: { email }, rejectOnEmpty: true });
    assert.equal(created.firstName, HOSTILE);
    await ctx().models.UserProfile.update({ data: { internalNotes: 'kept by the admin UI' } }, { where: { userId: created.id } });

    await page.goto(`${server.url}/admin/users`);
    await page.getByLabel('Search').fill(email.split('@')[0]);
    await page.getByLabel('Role').selectOption('author');
    await submit(page, 'Search');
    assert.equal(await page.locator('tbody tr').count(), 1);
    assert.equal(await page.locator('tbody tr td').nth(2).textContent(), HOSTILE, 'the hostile name shows as text');
    await screenshot(page, 'users-list');
    await page.getByRole('link', { name: email }).click();
    await page.waitForURL(`**/admin/users/${created.id}/edit`);
    assert.equal(await page.getByLabel('Internal notes').count(), 0, 'hidden fields are left out');

    // An invalid custom value is refused with its message, and every typed value stays.
    await page.getByLabel('Last name').fill('Lovelace');
    await page.getByLabel('Display name').fill('Ada');
    await page.getByLabel('Date of birth').fill('1990-05-17');
    await page.getByLabel('Team').fill('Not Valid');
    await page.getByLabel('Seats').fill('4');
    await page.getByLabel('Newsletter').check();
    await page.getByLabel('Plan').selectOption('pro');
    await page.getByLabel('m', { exact: true }).check();
    await page.getByLabel('api', { exact: true }).check();
    await page.getByLabel('ops', { exact: true }).check();
    await page.getByLabel('About').fill('Hello');
    await page.getByLabel('Preferences (JSON)').fill('{"theme":"dark"}');
    await page.getByLabel('City').fill('Oslo');
    await submit(page, 'Save');
    assert.equal(await page.locator('[data-field=team] .field-error').textContent(), 'format is invalid');
    assert.equal(await page.getByLabel('Team').inputValue(), 'Not Valid');
    assert.equal(await page.getByLabel('City').inputValue(), 'Oslo');
    assert.equal(await page.getByLabel('ops', { exact: true }).isChecked(), true);
    assert.equal(await page.getByLabel('Date of birth').inputValue(), '1990-05-17');
    await screenshot(page, 'users-edit-errors');

    await page.getByLabel('Team').fill('core');
    await submit(page, 'Save');
    assert.equal(await page.getByRole('status').textContent(), 'Changes saved');
    await screenshot(page, 'users-edit');
    const profile = await ctx().models.UserProfile.findByPk(created.id, { rejectOnEmpty: true });
    assert.deepEqual(profile.data, {
      internalNotes: 'kept by the admin UI', team: 'core', seats: 4, newsletter: true, plan: 'pro', size: 'm', topics: ['api', 'ops'],
      about: 'Hello', prefs: { theme: 'dark' }, address: { city: 'Oslo' },
    });
    assert.equal(profile.dateOfBirth, Date.UTC(1990, 4, 17) / 1000);
    assert.equal(profile.displayName, 'Ada');
  });

  it('when the only admin tries to demote themselves, then the rule shows at the Role field and nothing changes', async () => {
    const { page, server } = suite;
    await ctx().models.User.update({ role: 'editor' }, { where: { role: 'admin' } });
    const admin = await makeUser({ role: 'admin' });
    await signInThrough(page, server.url, `/admin/users/${admin.id}/edit`, admin.email);
    await page.getByLabel('Role').selectOption('editor');
    await submit(page, 'Save');
    assert.match(await page.locator('[data-field=role] .field-error').textContent() ?? '', /would leave no active admin/);
    assert.equal(await page.getByLabel('Role').inputValue(), 'editor', 'the typed choice stays');
    assert.equal((await ctx().models.User.findByPk(admin.id, { rejectOnEmpty: true })).role, 'admin');
    await screenshot(page, 'users-edit-last-admin');
  });

  it('when a form is posted without its _csrf field, then it is refused and nothing changes', async () => {
    const { page, server } = suite;
    const admin = await makeUser({ role: 'admin' });
    await signInThrough(page, server.url, '/admin/users/new', admin.email);
    const email = uniqueEmail('nocsrf');
    await page.getByLabel('Email').fill(email);
    await page.locator('form[action="/admin/users/new"] input[name=_csrf]').evaluate((input) => input.remove());
    await submit(page, 'Create user');
    assert.match(await page.locator('h1').textContent() ?? '', /Error/);
    assert.match(await page.locator('body').textContent() ?? '', /Invalid CSRF token/);
    assert.equal(await ctx().models.User.count({ where: { email } }), 0);
  });
});
