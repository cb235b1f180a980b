import type { Browser, Page } from 'playwright-core';
import { ctx } from './context';
import { launchBrowser, serve, type Served } from './browser';
import { DESKTOP, watchForScripts } from './admin-browser';

/** What a browser suite's hooks set up: read it inside a test (or a hook registered after the call). */
export interface BrowserSuite {
  readonly browser: Browser;
  readonly server: Served;
  /**
   * This test's own page, in a browser context of its own (cookies, storage): opened before the test, checked
   * after it for injected scripts and CSP violations, then closed.
   */
  readonly page: Page;
}

export interface BrowserSuiteOptions {
  /**
   * Serves the suite's app (the run's shared app by default). Called in the suite's before(), so it may use
   * what the suite's own earlier before() hooks started, an SMTP sink's URL for one.
   */
  serve?: () => Promise<Served>;
  /** The size of each test's page. */
  viewport?: { width: number; height: number };
  /** false: no page per test, for suites that open their own pages or contexts. */
  pagePerTest?: boolean;
}

/**
 * Registers, in the calling describe, the hooks of a suite that drives real Chromium: the browser and the
 * served app for the whole suite, and a fresh page per test that fails the test when an injected script ran
 * or the page broke its Content-Security-Policy. Hooks run in the order they are registered: a resource the app needs (an SMTP sink) is started
 * by a before() registered ahead of this call, and stopped by an after() registered behind it.
 */
export function browserSuite(options: BrowserSuiteOptions = {}): BrowserSuite {
  const { serve: serveApp = () => serve(ctx().app), viewport = DESKTOP, pagePerTest = true } = options;
  let browser: Browser | undefined;
  let server: Served | undefined;
  let page: Page | undefined;
  let checkScripts: () => Promise<void>;

  before(async () => {
    browser = await launchBrowser();
    server = await serveApp();
  });
  if (pagePerTest) {
    beforeEach(async () => {
      page = await present(browser, 'browser').newPage({ viewport });
      checkScripts = watchForScripts(page);
    });
    afterEach(async () => {
      const opened = page;
      page = undefined;
      if (!opened) return; // beforeEach failed before there was a page: that failure is the report
      try {
        await checkScripts();
      } finally {
        await opened.close();
      }
    });
  }
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  return {
    get browser() {
      return present(browser, 'browser');
    },
    get server() {
      return present(server, 'server');
    },
    get page() {
      return present(page, pagePerTest ? 'page' : 'page (this suite opens its own: pagePerTest is false)');
    },
  };
}

/** The value a hook set, or a plain error naming it where it is read too early. */
function present<T>(value: T | undefined, name: string): T {
  if (value === undefined) throw new Error(`browserSuite: no ${name} yet (read it inside a test or a later hook)`);
  return value;
}
