import assert from 'node:assert/strict';
import { buildApp, ctx, uniqueEmail } from '../support/context';
import { browserSuite } from '../support/browser-suite';
import { defineUserProfile } from '../../src/profiles/profile-definition';

const definition = defineUserProfile({
  fields: [
    { name: 'team', label: 'Team', type: 'string', required: true, validation: { pattern: '^[a-z]+$' } },
    { name: 'seats', label: 'Seats', type: 'number', validation: { min: 1, max: 10 } },
    { name: 'newsletter', label: 'Newsletter', type: 'boolean' },
    { name: 'plan', label: 'Plan', type: 'select', options: ['free', 'pro'], required: true },
    { name: 'size', label: 'Size', type: 'radio', options: ['s', 'm', 'l'] },
    { name: 'topics', label: 'Topics', type: 'multiselect', options: ['api', 'ui', 'ops'] },
    { name: 'about', label: 'About', type: 'textarea' },
    { name: 'tier', label: 'Tier', type: 'string', default: 'bronze' },
  ],
  registrationFields: ['team', 'seats', 'newsletter', 'plan', 'size', 'topics', 'about'],
});

describe('registration form in a real browser', function () {
  this.timeout(60_000);
  const suite = browserSuite({ app: () => buildApp({ profileDefinition: definition }), pagePerTest: false });

  it('when the form is filled with a bad value, then the error shows next to its field and the values stay; fixed, it registers', async () => {
    const { server } = suite;
    const page = await suite.open();
    await page.goto(`${server.url}/auth/register`);

    // Every custom type is rendered as its own kind of control.
    assert.equal(await page.locator('input[type=text][name=team]').count(), 1);
    assert.equal(await page.locator('input[type=number][name=seats]').count(), 1);
    assert.equal(await page.locator('input[type=checkbox][name=newsletter]').count(), 1);
    assert.equal(await page.locator('select[name=plan] option').count(), 3);
    assert.equal(await page.locator('input[type=radio][name=size]').count(), 3);
    assert.equal(await page.locator('input[type=checkbox][name=topics]').count(), 3);
    assert.equal(await page.locator('textarea[name=about]').count(), 1);
    assert.equal(await page.locator('[name=tier]').count(), 0, 'a field outside registrationFields is not on the form');

    const email = uniqueEmail('browser');
    await page.fill('input[name=email]', email);
    await page.fill('input[name=password]', 'a long enough password');
    await page.fill('input[name=team]', 'Not Valid');
    await page.fill('input[name=seats]', '42');
    await page.check('input[name=newsletter]');
    await page.selectOption('select[name=plan]', 'pro');
    await page.check('input[name=size][value=m]');
    await page.check('input[name=topics][value=api]');
    await page.check('input[name=topics][value=ops]');
    await page.fill('textarea[name=about]', 'Hello <b>there</b>');
    await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);

    assert.equal(await page.locator('[data-field=team] .field-error').textContent(), 'format is invalid');
    assert.equal(await page.locator('[data-field=seats] .field-error').textContent(), 'must be at most 10');
    assert.equal(await page.inputValue('input[name=email]'), email);
    assert.equal(await page.inputValue('input[name=team]'), 'Not Valid');
    assert.equal(await page.inputValue('input[name=seats]'), '42');
    assert.equal(await page.isChecked('input[name=newsletter]'), true);
    assert.equal(await page.inputValue('select[name=plan]'), 'pro');
    assert.equal(await page.isChecked('input[name=size][value=m]'), true);
    assert.equal(await page.isChecked('input[name=topics][value=ops]'), true);
    assert.equal(await page.isChecked('input[name=topics][value=ui]'), false);
    assert.equal(await page.inputValue('textarea[name=about]'), 'Hello <b>there</b>');
    assert.equal(await page.inputValue('input[name=password]'), '', 'the password is never sent back');
    assert.equal(await ctx().models.User.count({ where: { email } }), 0);

    await page.fill('input[name=password]', 'a long enough password');
    await page.fill('input[name=team]', 'core');
    await page.fill('input[name=seats]', '3');
    await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
    assert.equal(new URL(page.url()).pathname, '/admin');
    const cookies = await page.context().cookies();
    assert.ok(cookies.some((cookie) => cookie.name === 'auth_token' && cookie.httpOnly && cookie.sameSite === 'Strict'));

    const user = await ctx().models.User.findOne({ where: { email } });
    assert.ok(user);
    const profile = await ctx().models.UserProfile.findByPk(user.id);
    assert.deepEqual(profile?.data, {
      team: 'core',
      seats: 3,
      newsletter: true,
      plan: 'pro',
      size: 'm',
      topics: ['api', 'ops'],
      about: 'Hello <b>there</b>',
      tier: 'bronze',
    });
  });
});
