import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { browserSuite } from '../support/browser-suite';
import { makeUser, nextClientIp, proxiedApp } from '../support/auth';
import { PHONE, DESKTOP, screenshot, signInThrough } from '../support/admin-browser';

const AXE = fs.readFileSync(path.join(require.resolve('axe-core'), '..', 'axe.min.js'), 'utf8');

/*
 * axe-core WCAG 2.1 AA. The page's CSP refuses inline scripts, so axe is not added as a <script> tag:
 * its source is evaluated through the DevTools protocol, which the page's policy does not govern.
 */
async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  const results = await page.evaluate<Array<{ id: string; nodes: Array<{ target: string[] }> }>>(
    "axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } }).then((r) => r.violations.map((v) => ({ id: v.id, nodes: v.nodes.map((n) => ({ target: n.target })) })))",
  );
  return results.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

describe('admin dashboard in a real browser', function () {
  this.timeout(120_000);
  // Behind a trusted proxy: each guess of the burst comes from its own address, as a botnet's would.
  const suite = browserSuite({ app: () => proxiedApp() });

  it('when an admin opens it after a burst of wrong passwords, then the charts, the spike and its filtered log show, accessible at 1280 and 375 px', async () => {
    const { page, server } = suite;
    const admin = await makeUser({ role: 'admin' });
    const target = await makeUser();
    // The burst goes through the sign-in page's own endpoint, as a credential-stuffing client would send it.
    await Promise.all(Array.from({ length: 25 }, (_, i) => page.request.post(`${server.url}/auth/login`, { headers: { 'X-Forwarded-For': nextClientIp() }, data: { email: target.email, password: `wrong ${i}` } })));
    await page.context().clearCookies();
    await signInThrough(page, server.url, '/admin', admin.email);

    assert.equal(await page.locator('h1').textContent(), 'Dashboard');
    assert.equal(await page.locator('svg.chart').count(), 4, 'sign-ins and new users, for 24 hours and 30 days');
    for (const chart of await page.locator('svg.chart').all()) {
      assert.equal(await chart.getAttribute('role'), 'img');
      assert.match(await chart.locator('title').textContent() ?? '', /The numbers are in the table below/);
    }
    assert.ok((await page.locator('svg.chart path.series-failed').first().getAttribute('d'))?.startsWith('M'), 'a drawn line');
    const failed = await page.locator('#totals-day ~ dl dd').nth(1).textContent();
    assert.ok(Number(failed) >= 25, `failed sign-ins today: ${failed}`);

    for (const viewport of [DESKTOP, PHONE]) {
      await page.setViewportSize(viewport);
      assert.deepEqual(await axeViolations(page), [], `WCAG 2.1 AA at ${viewport.width} px`);
    }
    await page.setViewportSize(DESKTOP);
    await screenshot(page, 'dashboard-admin');

    // The tables behind the charts open without script.
    await page.getByText('The numbers, hour by hour').click();
    assert.ok(await page.locator('details').first().evaluate((d) => (d as unknown as { open: boolean }).open));

    await Promise.all([page.waitForNavigation(), page.getByRole('link', { name: 'Failed sign-in spike' }).first().click()]);
    const url = new URL(page.url());
    assert.equal(url.pathname, '/admin/activity');
    assert.equal(url.searchParams.get('action'), 'auth.login_failed');
    assert.ok(url.searchParams.get('since') && url.searchParams.get('until'));
    assert.ok((await page.locator('td[data-label="User"]').allTextContents()).includes(target.email));
    assert.deepEqual(await axeViolations(page), [], 'the filtered log is accessible too');
  });

  it('when JavaScript is off, then the dashboard reads the same: charts, tables and links', async () => {
    const { server } = suite;
    const admin = await makeUser({ role: 'admin' });
    const page = await suite.open({ javaScriptEnabled: false });
    await signInThrough(page, server.url, '/admin', admin.email);
    assert.equal(await page.locator('svg.chart').count(), 4);
    assert.ok(await page.getByRole('link', { name: /^\d+$/ }).count() > 0, 'the totals link to the log');
    assert.equal(await page.locator('table.adoption tbody tr').count(), 4, 'one row per role');
  });
});
