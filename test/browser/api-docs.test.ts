import assert from 'node:assert/strict';
import { browserSuite } from '../support/browser-suite';
import { assertAccessible } from '../support/axe';

/** /api/docs, the OpenAPI viewer, in Chromium: WCAG 2.1 AA clean at 1280 and 375 px, operations open by keyboard. */
describe('API documentation viewer in a real browser', function () {
  this.timeout(120_000);
  const suite = browserSuite();

  it('when the viewer is opened, then it lists the operations and passes axe at 1280 and 375 px, closed and with an operation open', async () => {
    const { page, server } = suite;
    await page.goto(`${server.url}/api/docs/`);
    await page.locator('.opblock').first().waitFor();
    await assertAccessible(page, '/api/docs');

    // An operation opens from the keyboard (its summary is one button, nothing interactive inside it), and the
    // opened operation (parameters, body schema, answers, "Try it out") is clean too.
    const login = page.locator('#operations-Auth-postAuthLogin');
    await login.locator('.opblock-summary-control').focus();
    await page.keyboard.press('Enter');
    await login.locator('.opblock-body').waitFor();
    assert.equal(await login.locator('.opblock-summary-control').getAttribute('aria-expanded'), 'true');
    assert.equal(await login.locator('.opblock-summary-control :is(a[href], button, input, select, [tabindex])').count(), 0, 'no control inside the summary button');
    await assertAccessible(page, '/api/docs with POST /auth/login open');
  });
});
