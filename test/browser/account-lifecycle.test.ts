import assert from 'node:assert/strict';
import { ctx, buildApp, uniqueEmail } from '../support/context';
import { browserSuite } from '../support/browser-suite';
import { PASSWORD, makeUser } from '../support/auth';
import { screenshot, signInThrough, submit } from '../support/admin-browser';

/** CONTRACT 12 pages: the strength meter, the verification landing, the profile's account cards. */
describe('account lifecycle pages in a real browser', function () {
  this.timeout(120_000);
  const suite = browserSuite({ mail: true, app: ({ mail }) => buildApp({ env: { SMTP_URL: mail.url, EMAIL_FROM: 'auth@example.test' } }) });

  it('when someone registers, then the meter rates the password as it is typed, a weak one is refused at the field, and the mailed link lands on a notice', async () => {
    const { page, server } = suite;
    const email = uniqueEmail('browser-reg');
    await page.goto(`${server.url}/auth/register`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('password123');
    assert.match(await page.locator('.strength-text').textContent() ?? '', /Too easy to guess/);
    await screenshot(page, 'register-strength-weak');
    await submit(page, 'Create account');
    assert.equal(await page.locator('[data-field=password] .field-error').textContent(), 'is one of the most commonly used passwords');
    await screenshot(page, 'register-password-refused');

    await page.getByLabel('Password').fill('Lantern-Orbit-Meadow-42');
    assert.match(await page.locator('.strength-text').textContent() ?? '', /Strong|Good/);
    await screenshot(page, 'register-strength-strong');
    await submit(page, 'Create account');
    assert.equal(new URL(page.url()).pathname, '/admin');

    const mail = await suite.mail.waitFor((m) => m.envelope.to.includes(email));
    const link = /https?:\/\/\S+(\/auth\/verify-email\?token=\S+)/.exec(mail.text)?.[1];
    assert.ok(link);
    await page.goto(`${server.url}${link}`);
    assert.equal(new URL(page.url()).pathname, '/auth/login');
    assert.equal(await page.getByRole('status').textContent(), 'Your email address is verified. Thank you.');
    await screenshot(page, 'verify-email-landing');
    await page.goto(`${server.url}${link}`);
    assert.match(await page.getByRole('alert').textContent() ?? '', /invalid, was already used or has expired/);
    await screenshot(page, 'verify-email-link-invalid');
  });

  it('when JavaScript is off, then the password field is a plain field without a meter', async () => {
    const { server } = suite;
    const plain = await suite.open({ javaScriptEnabled: false });
    await plain.goto(`${server.url}/auth/register`);
    assert.equal(await plain.locator('input[name=password][type=password]').count(), 1);
    assert.equal(await plain.locator('.strength').count(), 0);
  });

  it('when an unverified user opens their profile, then the account cards resend, change the address and delete the account', async () => {
    const { page, server } = suite;
    const user = await makeUser({ role: 'author', emailVerified: false });
    await signInThrough(page, server.url, '/admin/profile', user.email);
    assert.equal(await page.locator('[data-email-status]').textContent(), 'Not verified');
    await screenshot(page, 'profile-account-cards');

    await submit(page, 'Send the verification link again');
    assert.match(await page.getByRole('status').textContent() ?? '', /new link is on its way/);
    await suite.mail.waitFor((m) => m.envelope.to.includes(user.email));

    const newEmail = uniqueEmail('browser-move');
    await page.getByLabel('New email address').fill(newEmail);
    await page.getByLabel('Your password').fill('Not-My-Password-7');
    await submit(page, 'Change email');
    assert.equal(await page.locator('[data-field=emailCurrentPassword] .field-error').textContent(), 'is not your current password');
    assert.equal(await page.getByLabel('New email address').inputValue(), newEmail, 'the typed address is kept');
    await screenshot(page, 'profile-change-email-refused');
    await page.getByLabel('Your password').fill(PASSWORD);
    await submit(page, 'Change email');
    assert.match(await page.getByRole('status').textContent() ?? '', /confirmation link has been sent/);
    await suite.mail.waitFor((m) => m.envelope.to.includes(newEmail));

    await page.getByRole('navigation', { name: 'Account sections' }).getByRole('link', { name: 'Your data' }).click();
    await page.waitForURL((url) => url.pathname === '/admin/profile/data');
    await submit(page, 'Delete my account');
    assert.equal(await page.locator('[data-field=confirmDelete] .field-error').textContent(), 'tick the box to confirm');
    assert.equal(new URL(page.url()).pathname, '/admin/profile/delete', 'the refusal is drawn on the data section');
    assert.equal(await page.locator('h1').textContent(), 'Your data');
    await screenshot(page, 'profile-delete-unconfirmed');
    await page.getByLabel('I understand that my account is deleted for good').check();
    await submit(page, 'Delete my account');
    assert.equal(new URL(page.url()).pathname, '/auth/login');
    assert.equal(await page.getByRole('status').textContent(), 'Your account has been deleted.');
    assert.equal(await ctx().models.User.findByPk(user.id), null);
  });
});
