import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { ctx } from '../support/context';
import { browserSuite } from '../support/browser-suite';
import { makeUser } from '../support/auth';
import { screenshot, signInThrough, submit } from '../support/admin-browser';
import { assertAccessible } from '../support/axe';
import { IDP_CLIENT, OidcIdp } from '../support/oidc-idp';

const SLUG = 'globex';
const DOMAIN = 'globex.test';

describe('single sign-on settings and sign-in in a real browser (CONTRACT 15)', function () {
  this.timeout(120_000);
  let idp: OidcIdp;
  let page: Page;

  // At http://localhost:<port> with BASE_URL saying so: the IdP sends the browser back to the redirect URI the page shows.
  const suite = browserSuite({ atLocalhost: true, pagePerTest: false });
  before(async () => {
    idp = new OidcIdp();
    await idp.start([`${suite.server.url}/auth/sso/${SLUG}/callback`]);
    const admin = await makeUser({ role: 'admin' });
    page = await suite.open();
    page.setDefaultTimeout(10_000);
    await signInThrough(page, suite.server.url, '/admin/settings/sso', admin.email);
  });
  after(async () => {
    await ctx().models.SsoDomain.destroy({ where: {} });
    await ctx().models.SsoProvider.destroy({ where: {} });
    await idp?.stop();
  });

  it('when the admin adds an OpenID Connect provider, then the page lists it with the redirect URI to copy and never the secret', async () => {
    assert.match(await page.locator('main').innerText(), /No single sign-on provider yet/);
    await assertAccessible(page, 'single sign-on settings (empty)');
    await page.getByLabel(/^Slug/).fill(SLUG);
    await page.getByLabel(/^Protocol/).selectOption('oidc');
    await page.getByLabel(/^Name/).fill('Globex');
    await page.getByLabel(/^Email domains/).fill(`${DOMAIN}, globex-labs.test`);
    await page.getByLabel('Create accounts on first sign-in').check();
    await page.getByLabel('Issuer URL').fill(idp.issuer);
    await page.getByLabel('Client ID').fill(IDP_CLIENT.clientId);
    await page.getByLabel('Client secret').fill(IDP_CLIENT.clientSecret);
    await submit(page, 'Add provider');

    const main = await page.locator('main').innerText();
    assert.match(main, /Single sign-on provider saved/);
    assert.match(main, /Globex/);
    assert.match(main, new RegExp(`${suite.server.url}/auth/sso/${SLUG}/callback`));
    assert.ok(!(await page.content()).includes(IDP_CLIENT.clientSecret), 'the client secret is never drawn');
    await assertAccessible(page, 'single sign-on settings');
    await screenshot(page, 'settings-sso');
  });

  it('when a second provider claims a domain already taken, then the form comes back naming the refusal', async () => {
    await page.getByLabel(/^Slug/).fill('initech');
    await page.getByLabel(/^Name/).fill('Initech');
    await page.getByLabel(/^Email domains/).fill(DOMAIN);
    await page.getByLabel('Issuer URL').fill(idp.issuer);
    await page.getByLabel('Client ID').fill('x');
    await page.getByLabel('Client secret').fill('y');
    await submit(page, 'Add provider');
    assert.match(await page.getByRole('alert').first().innerText(), /globex\.test already belongs to another single sign-on provider/);
    assert.equal(await page.getByLabel(/^Slug/).inputValue(), 'initech', 'the typed values are kept');
    assert.equal(await ctx().models.SsoProvider.count({ where: { slug: 'initech' } }), 0);
  });

  it('when a person of the domain signs in through "Sign in with single sign-on", then the IdP sends them back signed in', async () => {
    const email = `grace@${DOMAIN}`;
    idp.as({ sub: 'grace-1', email, email_verified: true, given_name: 'Grace' });
    const visitor = await suite.open();
    await visitor.goto(`${suite.server.url}/auth/login`);
    await visitor.getByLabel('Work email').fill(email);
    await Promise.all([visitor.waitForURL((url) => url.pathname.startsWith('/admin')), visitor.getByRole('button', { name: 'Sign in with single sign-on' }).click()]);
    const user = await ctx().models.User.findOne({ where: { email }, rejectOnEmpty: true });
    const session = await ctx().models.Session.findOne({ where: { userId: user.id }, rejectOnEmpty: true });
    assert.equal(session.method, 'sso');
  });

  it('when the admin edits and then deletes the provider, then the list follows', async () => {
    await page.goto(`${suite.server.url}/admin/settings/sso`);
    await Promise.all([page.waitForNavigation(), page.getByRole('link', { name: 'Edit Globex' }).click()]);
    await assertAccessible(page, 'single sign-on provider edit');
    await page.getByLabel(/^Name/).fill('Globex Corporation');
    await page.getByLabel('Require single sign-on for these domains').check();
    await submit(page, 'Save');
    assert.match(await page.locator('main').innerText(), /Globex Corporation[\s\S]*Single sign-on required/);
    const row = await ctx().models.SsoProvider.findOne({ where: { slug: SLUG }, rejectOnEmpty: true });
    assert.equal(row.enforce, true);
    assert.ok(row.oidcClientSecretSealed, 'an empty secret field keeps the stored secret');

    await submit(page, 'Delete Globex Corporation');
    assert.match(await page.locator('main').innerText(), /No single sign-on provider yet/);
  });
});
