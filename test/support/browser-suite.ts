import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import type { Express } from 'express';
import { ctx } from './context';
import { launchBrowser, serve, serveAtLocalhost, type Served } from './browser';
import { DESKTOP, watchForScripts } from './admin-browser';
import { startSmtpSink, type SmtpSink } from './smtp-sink';

/** What a browser suite's hooks set up: read it inside a test (or a hook registered after the call). */
export interface BrowserSuite {
  readonly browser: Browser;
  readonly server: Served;
  /**
   * This test's own page, in a browser context of its own (cookies, storage): opened before the test, checked
   * after it for injected scripts and CSP violations, then closed.
   */
  readonly page: Page;
  /** The SMTP sink the app sends its mail to (with `mail: true`). */
  readonly mail: SmtpSink;
  /**
   * Another page in a browser context of its own, with its options (JavaScript off, a viewport): closed after
   * the test that opened it, or with the browser when a before() hook opened it. Not checked for scripts.
   */
  open(options?: BrowserContextOptions): Promise<Page>;
}

export interface BrowserSuiteOptions {
  /**
   * The suite's app, built in the suite's before() (the run's shared app by default), so it may use what the
   * suite's own earlier before() hooks set up, and the suite's SMTP sink (`mail`).
   */
  app?: (suite: BrowserSuite) => Express;
  /**
   * Serve a fresh app at http://localhost:<port> with BASE_URL saying so (OAuth's redirect_uri, WebAuthn's RP ID:
   * see serveAtLocalhost), instead of `app`.
   */
  atLocalhost?: boolean;
  /** An SMTP sink for the app's mail, started before the app and stopped after it: `suite.mail`. */
  mail?: boolean;
  /** The size of each test's page. */
  viewport?: { width: number; height: number };
  /** false: no page per test, for suites that open their own pages (`open`). */
  pagePerTest?: boolean;
}

/**
 * Registers, in the calling describe, the hooks of a suite that drives real Chromium: the browser and the
 * served app (and its SMTP sink) for the whole suite, and a fresh page per test that fails the test when an
 * injected script ran or the page broke its Content-Security-Policy. Hooks run in the order they are
 * registered: a resource the app needs is started by a before() registered ahead of this call, and stopped by
 * an after() registered behind it.
 */
export function browserSuite(options: BrowserSuiteOptions = {}): BrowserSuite {
  const { viewport = DESKTOP, pagePerTest = true } = options;
  let browser: Browser | undefined;
  let server: Served | undefined;
  let mail: SmtpSink | undefined;
  let page: Page | undefined;
  let checkScripts: () => Promise<void>;
  let inTest = false;
  const testContexts: BrowserContext[] = [];

  before(async () => {
    if (options.mail) mail = await startSmtpSink();
    browser = await launchBrowser();
    server = options.atLocalhost ? await serveAtLocalhost() : await serve(options.app ? options.app(suite) : ctx().app);
  });
  beforeEach(async () => {
    inTest = true;
    if (!pagePerTest) return;
    page = await present(browser, 'browser').newPage({ viewport });
    checkScripts = watchForScripts(page);
  });
  afterEach(async () => {
    inTest = false;
    const opened = page;
    page = undefined;
    try {
      // beforeEach failed before there was a page: that failure is the report.
      if (opened) await checkScripts();
    } finally {
      await opened?.close();
      for (const context of testContexts.splice(0)) await context.close();
    }
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await mail?.stop();
  });

  const suite: BrowserSuite = {
    get browser() {
      return present(browser, 'browser');
    },
    get server() {
      return present(server, 'server');
    },
    get page() {
      return present(page, pagePerTest ? 'page' : 'page (this suite opens its own: pagePerTest is false)');
    },
    get mail() {
      return present(mail, 'mail sink (ask for one with mail: true)');
    },
    async open(contextOptions = {}) {
      const context = await present(browser, 'browser').newContext(contextOptions);
      // Opened by a before() hook: it serves the whole suite and closes with the browser.
      if (inTest) testContexts.push(context);
      return context.newPage();
    },
  };
  return suite;
}

/** The value a hook set, or a plain error naming it where it is read too early. */
function present<T>(value: T | undefined, name: string): T {
  if (value === undefined) throw new Error(`browserSuite: no ${name} yet (read it inside a test or a later hook)`);
  return value;
}
