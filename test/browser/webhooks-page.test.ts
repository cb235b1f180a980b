import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import { buildApp } from '../support/context';
import { browserSuite } from '../support/browser-suite';
import { makeUser } from '../support/auth';
import { assertAccessible } from '../support/axe';
import { screenshot, signInThrough, submit } from '../support/admin-browser';
import { removeAllWebhooks } from '../support/webhooks';
import { outboxOf } from '../../src/app';

/**
 * /admin/settings/webhooks in Chromium (CONTRACT 16): an admin adds an endpoint choosing events by checkbox, sees
 * its secret once, sends a test event that a loopback receiver refuses (500), reads the delivery log (status,
 * response code, attempts), and resends it; the page passes axe at desktop and phone widths.
 */
describe('the webhooks admin page in a real browser', function () {
  this.timeout(90_000);
  let app: Express;
  let answers = 0;
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      answers += 1;
      res.writeHead(500).end();
    });
  });

  before(async () => {
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  });
  const suite = browserSuite({
    app: () => {
      app = buildApp();
      outboxOf(app).start();
      return app;
    },
  });
  after(async () => {
    await removeAllWebhooks(app);
    await outboxOf(app).stop();
    receiver.closeAllConnections();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  });

  it('when an admin adds an endpoint and sends a test event, then the secret shows once and the log shows the refused delivery, which can be resent', async () => {
    const { page, server } = suite;
    const admin = await makeUser({ role: 'admin' });
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    await signInThrough(page, server.url, '/admin/settings/webhooks', admin.email);

    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.waitForLoadState();
    assert.ok((await page.getByText('must list at least one event').count()) > 0 || (await page.locator('#field-url').getAttribute('aria-invalid')) === 'true', 'a refused form names what is wrong');

    await page.getByLabel('URL').fill(url);
    await page.getByLabel('Description').fill('CRM sync');
    await page.getByLabel('user.created').check();
    await page.getByLabel('user.deleted').check();
    await submit(page, 'Add endpoint');
    const secret = await page.locator('#webhook-secret').innerText();
    assert.match(secret, /^whsec_/);
    await assertAccessible(page, 'webhooks page with a new secret');

    await submit(page, `Send test event to ${url}`);
    assert.equal(await page.locator('#webhook-secret').count(), 0, 'the secret is not shown again');
    for (let tries = 0; answers < 1 && tries < 100; tries++) await new Promise((resolve) => setTimeout(resolve, 100));
    // The delivery's attempt is recorded right after the receiver answers: read the page until it shows.
    for (let tries = 0; tries < 50; tries++) {
      await page.reload();
      if ((await page.getByRole('cell', { name: '500' }).count()) > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const row = page.getByRole('row', { name: /webhook\.test/ });
    assert.match(await row.innerText(), /pending[\s\S]*500[\s\S]*1/);
    // Both check the desktop and the 375 px width themselves (nothing may stick out sideways on a phone).
    await screenshot(page, 'webhooks');
    await assertAccessible(page, 'webhooks page with its delivery log');

    const before = answers;
    await submit(page, /^Resend webhook\.test/);
    for (let tries = 0; answers === before && tries < 100; tries++) await new Promise((resolve) => setTimeout(resolve, 100));
    assert.ok(answers > before, 'the resent delivery reached the receiver');
  });
});
