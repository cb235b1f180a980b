import assert from 'node:assert/strict';
import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { DESKTOP, PHONE } from './admin-browser';

const AXE_SOURCE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

interface AxeViolation { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }

/**
 * Runs axe-core's WCAG 2.1 A/AA rules on the page as it is, at 1280 and at 375 px wide, and fails with every
 * violation named. axe is evaluated through the DevTools protocol, which the page's strict CSP does not govern
 * (a <script> tag added to the page would be refused by `script-src 'self'`, and reported as a violation).
 */
export async function assertAccessible(page: Page, name: string): Promise<void> {
  for (const viewport of [DESKTOP, PHONE]) {
    await page.setViewportSize(viewport);
    if ((await page.evaluate<string>('typeof window.axe')) !== 'object') await page.evaluate(AXE_SOURCE);
    const violations = await page.evaluate<AxeViolation[]>(`axe.run(document, { runOnly: { type: 'tag', values: ${JSON.stringify(WCAG_21_AA)} } }).then((result) => result.violations)`);
    const found = violations.map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`);
    assert.deepEqual(found, [], `${name} at ${viewport.width} px: WCAG 2.1 AA violations`);
  }
  await page.setViewportSize(DESKTOP);
}
