import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { samlMetadataXml } from '../../../src/sign-in/sso/saml.strategy';
import { MemoryStore } from '../../../src/store/memory-store';
import { launchBrowser } from '../../support/browser';
import { makeSigningKey, SamlIdp, spApp } from '../../support/saml-idp';

const SLUG = 'acme';

async function listen(handler: http.RequestListener): Promise<{ server: http.Server; port: number }> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

/**
 * The ACS POST in a real Chromium: the IdP is another site (http://127.0.0.1:<port>) than the service
 * (http://localhost:<port>), so the browser's cookie rules decide whether the flow's binding cookie comes back.
 */
describe('SAML sign-in in Chromium (cross-site POST to the ACS)', function () {
  this.timeout(60_000);
  let browser: Browser;
  let sp: http.Server;
  let idpServer: http.Server;
  let spUrl: string;
  /** The SAMLResponse the IdP page posts: null answers the request in the URL, else this captured one. */
  let replayed: string | null = null;
  let lastResponse = '';

  before(async () => {
    let app: ReturnType<typeof spApp> | undefined;
    const spListening = await listen((req, res) => app!(req, res));
    sp = spListening.server;
    spUrl = `http://localhost:${spListening.port}`;
    const spMetadata = samlMetadataXml(spUrl, SLUG);

    let idp: SamlIdp | undefined;
    const idpListening = await listen((req, res) => {
      void (async () => {
        const request = await idp!.parseRequest(spMetadata, `http://127.0.0.1${req.url}`);
        lastResponse = await idp!.respond(spMetadata, request);
        const samlResponse = replayed ?? lastResponse;
        // The HTTP-POST binding as IdPs send it: a page whose form posts itself to the ACS.
        res.setHeader('Content-Type', 'text/html');
        res.end(`<!doctype html><form method="post" action="${request.acs}"><input type="hidden" name="SAMLResponse" value="${samlResponse}"></form><script>document.forms[0].submit()</script>`);
      })().catch((err: unknown) => {
        res.statusCode = 500;
        res.end(String(err));
      });
    });
    idpServer = idpListening.server;
    idp = new SamlIdp('https://idp.corp.example/saml', `http://127.0.0.1:${idpListening.port}/sso`, await makeSigningKey('idp.corp.example'));
    app = spApp(new MemoryStore(), spUrl, { [SLUG]: idp.settings() });
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    for (const server of [sp, idpServer]) {
      server?.closeAllConnections();
      await new Promise((resolve) => server?.close(resolve));
    }
  });

  async function signIn(): Promise<unknown> {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(`${spUrl}/auth/sso/${SLUG}`);
      await page.waitForURL(`${spUrl}/auth/sso/${SLUG}/acs`);
      return JSON.parse((await page.textContent('body'))!);
    } finally {
      await context.close();
    }
  }

  it('when the IdP posts the response back, then the SameSite=None binding cookie crosses sites and the sign-in completes', async () => {
    replayed = null;
    assert.deepEqual(await signIn(), { identity: { subject: 'ada@corp.example', email: 'ada@corp.example' } });
  });

  it('when another browser is made to post a response it did not ask for (login CSRF), then refused: in_response_to', async () => {
    // The attacker's flow: its response is captured, never posted by the attacker's own browser.
    replayed = null;
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.route(`${spUrl}/auth/sso/${SLUG}/acs`, (route) => route.abort());
    await page.goto(`${spUrl}/auth/sso/${SLUG}`).catch(() => undefined);
    await context.close();
    const attackers = lastResponse;
    // The victim's browser starts a flow of its own, and is handed the attacker's response instead.
    replayed = attackers;
    assert.deepEqual(await signIn(), { refused: 'in_response_to' });
  });
});
