import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { PASSWORD } from './auth';
import { watchForCspViolations } from './browser';

/**
 * Where the admin-site screenshots go. A test run writes them outside the repository, so running the suite
 * never changes a committed file; `SCREENSHOT_DIR=docs/screenshots` refreshes the committed set (the README
 * shows some of them), as for the settings and plugin pages.
 */
export const SCREENSHOT_DIR = process.env.SCREENSHOT_DIR ? path.resolve(process.env.SCREENSHOT_DIR) : path.join(os.tmpdir(), 'auth-admin-screenshots');

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 375, height: 740 };

/** Saves the page as it looks on a desktop and at 375 px wide: `<name>-desktop.png`, `<name>-375.png`. */
export async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.setViewportSize(DESKTOP);
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-desktop.png`), fullPage: true });
  await page.setViewportSize(PHONE);
  // Nothing may stick out sideways on a phone: the page scrolls only down (wide tables scroll inside their box).
  const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
  assert.ok(overflow <= 0, `${name}: ${overflow}px wider than a 375 px screen`);
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-375.png`), fullPage: true });
  await page.setViewportSize(DESKTOP);
}

/**
 * Opens an admin path signed out, lands on the sign-in page, signs in there by the field labels, and
 * comes back to the path asked for.
 */
export async function signInThrough(page: Page, baseUrl: string, pathname: string, email: string, password = PASSWORD): Promise<void> {
  await page.goto(`${baseUrl}${pathname}`);
  assert.equal(new URL(page.url()).pathname, '/auth/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  // Exact: the page also has "Sign in with a passkey".
  await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Sign in', exact: true }).click()]);
  const landed = new URL(page.url());
  assert.equal(`${landed.pathname}${landed.search}`, pathname);
}

/** Clicks a submit button and waits for the page it leads to. */
export async function submit(page: Page, name: string | RegExp): Promise<void> {
  await Promise.all([page.waitForNavigation(), page.getByRole('button', { name, exact: typeof name === 'string' }).click()]);
}

/**
 * Fails the test when any script of a stored XSS attempt ran (a dialog, or the marker global set), or when
 * the page broke its Content-Security-Policy (something it needs was refused).
 */
export function watchForScripts(page: Page): () => Promise<void> {
  const csp = watchForCspViolations(page);
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  return async () => {
    assert.deepEqual(dialogs, [], 'no injected script may open a dialog');
    assert.equal(await page.evaluate('window.__xss'), undefined, 'no injected script may run');
    assert.deepEqual(csp.violations(), [], 'no Content-Security-Policy violation');
  };
}
