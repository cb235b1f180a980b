import assert from 'node:assert/strict';
import { buildApp, ctx } from '../support/context';
import { watchForCspViolations } from '../support/browser';
import { browserSuite } from '../support/browser-suite';
import { makeUser } from '../support/auth';
import { screenshot, signInThrough } from '../support/admin-browser';

/**
 * Every page under the Content-Security-Policy in real Chromium (issue 26, finding 8): each loads with its
 * stylesheets and scripts and reports no violation, the OTP page's live mail preview still follows the form
 * (its frame is srcdoc, under the page's policy), and the OpenAPI viewer still draws the API.
 */
describe('pages under the Content-Security-Policy in a real browser', function () {
  this.timeout(120_000);
  const suite = browserSuite({ app: () => buildApp() });
  let csp: ReturnType<typeof watchForCspViolations>;

  before(async () => {
    await ctx().models.Plugin.upsert({ name: 'otp-login', active: true, settings: {} });
  });
  beforeEach(async () => {
    csp = watchForCspViolations(suite.page);
  });
  after(async () => {
    await ctx().models.Plugin.destroy({ where: {} });
  });

  /** The page's own stylesheet applied (a refused one would leave the browser's default white and serif). */
  async function styled(): Promise<boolean> {
    return suite.page.evaluate<boolean>("[...document.styleSheets].some((sheet) => (sheet.href || '').includes('/static/')) && getComputedStyle(document.body).fontFamily !== 'serif'");
  }

  it('when each sign-in page is opened, then it is styled and reports no violation', async () => {
    const { page, server } = suite;
    for (const path of ['/auth/login', '/auth/register', '/auth/otp', '/auth/forgot-password']) {
      const res = await page.goto(`${server.url}${path}`);
      assert.equal(res?.status(), 200, path);
      assert.match(res?.headers()['content-security-policy'] ?? '', /frame-ancestors 'none'/, path);
      assert.ok(await styled(), `${path} is styled`);
    }
    await screenshot(page, 'csp-login');
    assert.deepEqual(csp.violations(), []);
  });

  it('when an admin opens every admin page, then each is styled and reports no violation', async () => {
    const { page, server } = suite;
    const admin = await makeUser({ role: 'admin' });
    await signInThrough(page, server.url, '/admin', admin.email);
    const pages = ['/admin', '/admin/users', '/admin/users/new', `/admin/users/${admin.id}/edit`, '/admin/profile', '/admin/profile/security', '/admin/profile/sessions', '/admin/profile/apps', '/admin/profile/data', '/admin/content', '/admin/content/new',
      '/admin/collections', '/admin/activity', '/admin/settings/security', '/admin/plugins', '/admin/plugins/email', '/admin/plugins/oauth-providers'];
    for (const path of pages) {
      const res = await page.goto(`${server.url}${path}`);
      assert.equal(res?.status(), 200, path);
      assert.ok(await styled(), `${path} is styled`);
    }
    assert.deepEqual(csp.violations(), []);
  });

  it('when the OTP settings are edited, then the live preview follows the form, styled and with the logo, and nothing is refused', async () => {
    const { page, server } = suite;
    const admin = await makeUser({ role: 'admin' });
    await signInThrough(page, server.url, '/admin/plugins/otp-login', admin.email);
    const frame = page.frameLocator('#otp-preview');
    await frame.locator('.otp-code').waitFor();
    await page.getByLabel('Code length').fill('8');
    await page.getByLabel('Logo URL').fill('https://logo.example.test/logo.png');
    const started = Date.now();
    while (!/12345678/.test(await frame.locator('.otp-code').innerText())) {
      assert.ok(Date.now() - started < 10_000, 'the preview follows the code length');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // The mail's inline styles apply inside the frame (a refused style= would leave 16 px text).
    const fontSize = (code: unknown) => (globalThis as unknown as { getComputedStyle(node: unknown): { fontSize: string } }).getComputedStyle(code).fontSize;
    assert.equal(await frame.locator('.otp-code').evaluate(fontSize), '36px');
    assert.equal(await frame.locator('img').count(), 1);
    await screenshot(page, 'csp-otp-preview');
    assert.deepEqual(csp.violations(), []);
  });

  it('when the OpenAPI viewer is opened, then it draws the API from its own files and reports no violation', async () => {
    const { page, server } = suite;
    const res = await page.goto(`${server.url}/api/docs`);
    assert.equal(res?.status(), 200);
    await page.locator('.opblock').first().waitFor({ timeout: 20_000 });
    assert.ok((await page.locator('.opblock').count()) > 10, 'the operations are listed');
    await screenshot(page, 'csp-api-docs');
    assert.deepEqual(csp.violations(), []);
  });
});
