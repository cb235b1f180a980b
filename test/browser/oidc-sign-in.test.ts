import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { browserSuite } from '../support/browser-suite';
import { makeUser, PASSWORD, tokenFor } from '../support/auth';
import { ctx } from '../support/context';
import { submit } from '../support/admin-browser';
import { awayFromStepEnd, codeFor, enrolTotp } from '../support/totp';
import { generators, registerClient, relyingParty } from '../support/oidc-relying-party';

/**
 * A sample application on its own loopback origin, signing its users in through the service with openid-client:
 * /login starts the code flow (PKCE, state, nonce kept in its memory: it is one process), /cb redeems the code and
 * shows who signed in, from the ID token and userinfo; /logout sends the browser to the service's logout endpoint
 * (no ID token hint: the service asks), which comes back to /signed-out with state.
 */
async function sampleApplication(issuer: string) {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const redirectUri = `${base}/cb`;
  const postLogoutRedirectUri = `${base}/signed-out`;
  const registered = await registerClient({ redirectUri, postLogoutRedirectUri });
  const client = await relyingParty(issuer, { ...registered, redirectUri });
  const pending = new Map<string, { verifier: string; nonce: string }>();
  server.on('request', (req, res) => {
    void (async () => {
      const url = new URL(req.url as string, base);
      if (url.pathname === '/login') {
        const verifier = generators.codeVerifier();
        const state = generators.state();
        const nonce = generators.nonce();
        pending.set(state, { verifier, nonce });
        res.writeHead(302, { location: client.authorizationUrl({ scope: 'openid profile email', code_challenge: generators.codeChallenge(verifier), code_challenge_method: 'S256', state, nonce }) }).end();
        return;
      }
      if (url.pathname === '/logout') {
        res.writeHead(302, { location: client.endSessionUrl({ post_logout_redirect_uri: postLogoutRedirectUri, state: 'after-logout' }) }).end();
        return;
      }
      if (url.pathname === '/signed-out') {
        res.writeHead(200, { 'content-type': 'text/html' }).end(`<h1>Signed out of the sample</h1><p id="state">${url.searchParams.get('state') ?? ''}</p>`);
        return;
      }
      if (url.pathname === '/cb') {
        const params = client.callbackParams(req);
        const checks = pending.get(params.state as string);
        if (!checks) throw new Error('unknown state');
        const tokens = await client.callback(redirectUri, params, { code_verifier: checks.verifier, state: params.state, nonce: checks.nonce });
        const info = await client.userinfo(tokens.access_token as string);
        res.writeHead(200, { 'content-type': 'text/html' }).end(`<h1>Signed in as ${info.email as string}</h1><p id="sub">${tokens.claims().sub}</p>`);
        return;
      }
      res.writeHead(404).end();
    })().catch((err: Error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(err.message));
  });
  return { base, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** CONTRACT 14 in Chromium: another site signs its users in through the service's sign-in and consent pages. */
describe('signing in to another application through the service, in a real browser', function () {
  this.timeout(120_000);
  // The issuer is the served address (BASE_URL), so the application's discovery and the browser agree.
  const suite = browserSuite({ atLocalhost: true });
  let application: Awaited<ReturnType<typeof sampleApplication>>;

  before(async () => {
    application = await sampleApplication(suite.server.url);
  });
  after(() => application.close());

  it('when a signed-out user signs in and allows the application, then the application knows them', async () => {
    const { page } = suite;
    const user = await makeUser();
    await page.goto(`${application.base}/login`);
    await page.waitForURL((url) => url.pathname === '/auth/login');
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await Promise.all([page.waitForURL((url) => url.pathname.startsWith('/oidc/interaction/')), page.getByRole('button', { name: 'Sign in', exact: true }).click()]);

    assert.match(await page.locator('h1').textContent() as string, /Allow Sample wiki/);
    assert.equal(await page.getByText('See your email address').count(), 1, 'the scopes in words');
    await Promise.all([page.waitForURL((url) => url.origin === application.base), page.getByRole('button', { name: 'Allow' }).click()]);
    await page.waitForSelector('#sub');
    assert.equal(await page.locator('h1').textContent(), `Signed in as ${user.email}`);
    assert.equal(await page.locator('#sub').textContent(), user.id);
  });

  it('when the application sends a signed-in user to the logout endpoint without a hint, then the service asks, and "yes" signs them out and returns to the application with state', async () => {
    const { page, server } = suite;
    const user = await makeUser();
    await page.goto(`${application.base}/login`);
    await page.waitForURL((url) => url.pathname === '/auth/login');
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await Promise.all([page.waitForURL((url) => url.pathname.startsWith('/oidc/interaction/')), page.getByRole('button', { name: 'Sign in', exact: true }).click()]);
    await Promise.all([page.waitForURL((url) => url.origin === application.base), page.getByRole('button', { name: 'Allow' }).click()]);
    await page.waitForSelector('#sub');

    await page.goto(`${application.base}/logout`);
    await page.getByText('Do you want to sign out of this service?').waitFor();
    await Promise.all([page.waitForURL((url) => url.origin === application.base), page.getByRole('button', { name: 'Yes, sign me out' }).click()]);
    await page.waitForSelector('#state');
    assert.equal(await page.locator('#state').textContent(), 'after-logout');
    await page.goto(`${server.url}/admin/profile`);
    assert.equal(new URL(page.url()).pathname, '/auth/login', 'signed out of the service');
  });

  it('when a user with two-factor signs in, then the second step comes before any code reaches the application', async () => {
    const { page } = suite;
    const user = await makeUser();
    const { secret } = await enrolTotp(ctx().app, await tokenFor(user));
    const codesBefore = await ctx().models.OidcPayload.count({ where: { model: 'AuthorizationCode' } });

    await page.goto(`${application.base}/login`);
    await page.waitForURL((url) => url.pathname === '/auth/login');
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await submit(page, 'Sign in');
    assert.equal(new URL(page.url()).pathname, '/auth/2fa');
    assert.equal(await ctx().models.OidcPayload.count({ where: { model: 'AuthorizationCode' } }), codesBefore, 'no code before the second factor');

    await awayFromStepEnd();
    // The next step's code (within the allowed drift): enrolment used this step's, and a code is good once.
    await page.getByLabel('Code *', { exact: true }).fill(codeFor(secret, 1));
    await Promise.all([page.waitForURL((url) => url.pathname.startsWith('/oidc/interaction/')), page.getByRole('button', { name: 'Verify', exact: true }).click()]);
    await Promise.all([page.waitForURL((url) => url.origin === application.base), page.getByRole('button', { name: 'Allow' }).click()]);
    await page.waitForSelector('#sub');
    assert.equal(await page.locator('#sub').textContent(), user.id);
  });
});
