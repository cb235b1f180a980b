import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import { chromium, type Browser, type Page } from 'playwright-core';
import { createHttpServer } from '../../src/http/http-server';
import { buildApp } from './context';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** A real headless Chromium (Debian's package), kept off the network but for loopback. */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-background-networking', '--disable-gpu', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

/** An app served to the browser: where it is, and how to stop it. */
export interface Served {
  url: string;
  close: () => Promise<void>;
}

/** Stops a listening server at once, dropping the browser's kept-alive connections. */
function closer(server: http.Server): () => Promise<void> {
  return () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
}

/** Serves the app on an ephemeral loopback port for the browser; `close` stops it. */
export async function serve(app: Express): Promise<Served> {
  // The service's own server (its request and response classes), as production serves pages.
  const server = createHttpServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: closer(server) };
}

/**
 * A fresh app at http://localhost:<port>, BASE_URL saying so, for flows that check where the browser is:
 * OAuth's redirect_uri must match it, and WebAuthn takes `localhost` as RP ID over plain http (a secure
 * context), never 127.0.0.1 (an IP address is no RP ID). The app is built once the port is known.
 */
export async function serveAtLocalhost(): Promise<Served> {
  let app: Express | undefined;
  const server = http.createServer((req, res) => app!(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://localhost:${(server.address() as AddressInfo).port}`;
  app = buildApp({ env: { BASE_URL: url } });
  return { url, close: closer(server) };
}

/**
 * Collects every Content-Security-Policy violation the page (or a frame of it) reports: Chromium logs each
 * refused script, style, image, form target or frame as a console error. `violations()` answers what was
 * seen so far; a page that works under the policy reports none.
 */
export function watchForCspViolations(page: Page): { violations: () => string[] } {
  const seen: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) seen.push(`${page.url()}: ${message.text()}`);
  });
  return { violations: () => [...seen] };
}
