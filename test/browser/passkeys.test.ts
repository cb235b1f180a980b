import assert from 'node:assert/strict';
import type { CDPSession, Page } from 'playwright-core';
import { ctx } from '../support/context';
import { browserSuite } from '../support/browser-suite';
import { PASSWORD, makeUser, tokenFor } from '../support/auth';
import { codeFor, enrolTotp } from '../support/totp';
import { screenshot, signInThrough, submit } from '../support/admin-browser';

/**
 * Chromium's virtual authenticator (DevTools protocol): a platform authenticator with resident keys and user
 * verification that says yes at once, as a laptop's fingerprint reader would for its owner.
 */
async function addVirtualAuthenticator(page: Page): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  return { cdp, authenticatorId };
}

const passkeysCard = (page: Page) => page.locator('section', { has: page.getByRole('heading', { name: 'Passkeys' }) });

async function signOut(page: Page): Promise<void> {
  await submit(page, 'Sign out');
  assert.equal(new URL(page.url()).pathname, '/auth/login');
}

describe('passkeys in a real browser (Chromium virtual authenticator)', function () {
  this.timeout(120_000);
  // At localhost: WebAuthn takes it as RP ID over plain http, never 127.0.0.1. Each test's page has a browser
  // context of its own, so no test inherits another's sign-in.
  const suite = browserSuite({ atLocalhost: true });

  it('when a user adds a passkey on their profile, signs out and signs in with it, then removes it, then the passkey is refused', async () => {
    const { page, server } = suite;
    const context = page.context();
    const user = await makeUser({ role: 'author' });
    const { cdp, authenticatorId } = await addVirtualAuthenticator(page);
    await signInThrough(page, server.url, '/admin/profile/security', user.email);
    const card = passkeysCard(page);
    assert.equal(await card.getByText('No passkeys yet.').count(), 1);

    await card.getByLabel('Name for the new passkey (optional)').fill('Work laptop');
    await Promise.all([page.waitForURL((url) => url.searchParams.get('notice') === 'passkey_added'), card.getByRole('button', { name: 'Add a passkey' }).click()]);
    assert.equal(await page.getByRole('status').textContent(), 'Passkey added. You can now sign in with it.');
    assert.deepEqual((await card.locator('tbody tr td').allTextContents()).map((text) => text.trim()).filter(Boolean).slice(0, 1), ['Work laptop']);
    assert.match((await card.locator('tbody tr').textContent()) ?? '', /Never/);
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    assert.equal(credentials.length, 1);
    assert.equal(credentials[0].isResidentCredential, true, 'a discoverable passkey');
    assert.equal(Buffer.from(credentials[0].userHandle ?? '', 'base64').toString(), user.id);
    await screenshot(page, 'profile-passkeys');

    await signOut(page);
    const button = page.getByRole('button', { name: 'Sign in with a passkey' });
    assert.ok(await button.isVisible());
    await screenshot(page, 'login-passkey');
    await Promise.all([page.waitForURL((url) => url.pathname === '/admin'), button.click()]);
    await page.goto(`${server.url}/admin/profile/security`);
    assert.doesNotMatch((await passkeysCard(page).locator('tbody tr').textContent()) ?? '', /Never/, 'last used is set');
    const session = await ctx().models.Session.findOne({ where: { userId: user.id, method: 'passkey' } });
    assert.ok(session, 'the sign-in is a passkey session');
    await page.goto(`${server.url}/admin/profile/sessions`);
    assert.ok(await page.locator('section', { has: page.getByRole('heading', { name: 'Sessions' }) }).getByText('by passkey').count());
    await page.goto(`${server.url}/admin/profile/security`);

    await submit(page, 'Remove passkey Work laptop');
    assert.equal(await page.getByRole('status').textContent(), 'Passkey removed. It can no longer sign in.');
    assert.equal(await passkeysCard(page).getByText('No passkeys yet.').count(), 1);
    assert.equal(await ctx().models.Passkey.count({ where: { userId: user.id } }), 0);

    // The authenticator still holds the credential; the service no longer knows it.
    await signOut(page);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    const error = page.locator('#passkey-sign-in-error');
    await error.waitFor({ state: 'visible' });
    assert.equal(await error.textContent(), 'Passkey sign-in failed. Try again, or sign in another way.');
    assert.equal(new URL(page.url()).pathname, '/auth/login');
    assert.equal((await context.cookies()).find((cookie) => cookie.name === 'auth_token'), undefined);
    await screenshot(page, 'login-passkey-refused');
  });

  it('when the sign-in page was opened with a redirect, then the passkey sign-in goes there', async () => {
    const { page, server } = suite;
    const user = await makeUser({ role: 'author' });
    await addVirtualAuthenticator(page);
    await signInThrough(page, server.url, '/admin/profile/security', user.email);
    await Promise.all([page.waitForURL((url) => url.searchParams.get('notice') === 'passkey_added'), passkeysCard(page).getByRole('button', { name: 'Add a passkey' }).click()]);
    assert.equal(await passkeysCard(page).locator('tbody tr').count(), 1);
    await signOut(page);
    await page.goto(`${server.url}/admin/profile`);
    assert.equal(new URL(page.url()).pathname, '/auth/login');
    await Promise.all([page.waitForURL((url) => url.pathname === '/admin/profile'), page.getByRole('button', { name: 'Sign in with a passkey' }).click()]);
  });

  it('when a user with TOTP signs in with a password, then the second step offers "Use a passkey", which signs them in; a verified passkey sign-in skips the second step', async () => {
    const { page, server } = suite;
    const user = await makeUser({ role: 'author' });
    // Enrolled through the suite's app (its tokens name its BASE_URL); the same database and secret.
    const { secret } = await enrolTotp(ctx().app, await tokenFor(user));
    await addVirtualAuthenticator(page);
    // Adding a passkey is a step-up action; this sign-in is fresh (password, then a TOTP code).
    await page.goto(`${server.url}/admin/profile/security`);
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await submit(page, 'Sign in');
    assert.equal(new URL(page.url()).pathname, '/auth/2fa');
    assert.equal(await page.getByRole('button', { name: 'Use a passkey' }).count(), 0, 'no passkey yet, so none offered');
    // The next step's code: enrolment spent this step's (a code is accepted once), one step of drift is allowed.
    await page.getByLabel('Code *', { exact: true }).fill(codeFor(secret, 1));
    await submit(page, 'Verify');
    assert.equal(new URL(page.url()).pathname, '/admin/profile/security');
    await Promise.all([page.waitForURL((url) => url.searchParams.get('notice') === 'passkey_added'), passkeysCard(page).getByRole('button', { name: 'Add a passkey' }).click()]);

    await signOut(page);
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await submit(page, 'Sign in');
    assert.equal(new URL(page.url()).pathname, '/auth/2fa');
    const usePasskey = page.getByRole('button', { name: 'Use a passkey' });
    assert.ok(await usePasskey.isVisible());
    await screenshot(page, 'two-factor-passkey');
    await Promise.all([page.waitForURL((url) => url.pathname === '/admin'), usePasskey.click()]);
    assert.ok(await ctx().models.Session.findOne({ where: { userId: user.id, method: 'password+passkey' } }));

    // The virtual authenticator verifies its user: a passkey sign-in is both factors at once.
    await page.goto(`${server.url}/admin/profile`);
    await signOut(page);
    await Promise.all([page.waitForURL((url) => url.pathname === '/admin'), page.getByRole('button', { name: 'Sign in with a passkey' }).click()]);
    assert.ok(await ctx().models.Session.findOne({ where: { userId: user.id, method: 'passkey' } }));
  });

  it('when JavaScript is off, then the sign-in page offers no passkey and the password form still signs in; the profile says adding needs JavaScript', async () => {
    const { server } = suite;
    const plain = await suite.open({ javaScriptEnabled: false, viewport: { width: 1280, height: 800 } });
    const user = await makeUser({ role: 'author' });
    await signInThrough(plain, server.url, '/admin/profile/security', user.email);
    const card = passkeysCard(plain);
    assert.equal(await card.getByRole('button', { name: 'Add a passkey' }).isVisible(), false);
    assert.equal(await card.getByText('Adding a passkey needs JavaScript and a browser that supports passkeys.').isVisible(), true);
    await plain.goto(`${server.url}/auth/login`);
    assert.equal(await plain.getByRole('button', { name: 'Sign in', exact: true }).isVisible(), true);
    assert.equal(await plain.getByRole('button', { name: 'Sign in with a passkey' }).isVisible(), false);
  });
});
