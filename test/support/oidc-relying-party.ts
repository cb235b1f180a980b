import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Issuer, generators, type Client } from 'openid-client';
import { buildApp, ctx } from './context';
import { PASSWORD } from './auth';
import { hashClientSecret } from '../../src/services/oidc-provider/oauth-clients.service';

/** The app on a loopback port, its BASE_URL (and so its issuer) that port, as an OpenID client sees it. */
export async function listeningProvider(env: Record<string, string> = {}): Promise<{ base: string; close(): Promise<void> }> {
  let app: ReturnType<typeof buildApp> | null = null;
  const server = http.createServer((req, res) => (app as NonNullable<typeof app>)(req, res)).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  app = buildApp({ env: { BASE_URL: base, ...env } });
  return { base, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** A registered application written straight to its table (the admin API has its own tests). */
export async function registerClient(options: { redirectUri: string; firstParty?: boolean; public?: boolean; postLogoutRedirectUri?: string }) {
  const clientId = `client-${Math.random().toString(36).slice(2)}`;
  const clientSecret = `cs_${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`;
  await ctx().models.OAuthClient.create({
    clientId, name: 'Sample wiki', secretHash: options.public ? null : hashClientSecret(clientSecret), redirectUris: [options.redirectUri],
    postLogoutRedirectUris: options.postLogoutRedirectUri ? [options.postLogoutRedirectUri] : [], public: options.public ?? false,
    firstParty: options.firstParty ?? false, allowedScopes: ['openid', 'profile', 'email', 'offline_access'], grantTypes: ['authorization_code', 'refresh_token', 'client_credentials'],
  });
  return { clientId, clientSecret };
}

/** A browser without JavaScript: a cookie jar (one host) and redirects followed by hand, so each hop can be checked. */
export class CookieBrowser {
  readonly jar = new Map<string, string>();

  async request(url: string, init: { method?: string; form?: Record<string, string> } = {}): Promise<Response> {
    const headers: Record<string, string> = { accept: 'text/html' };
    if (this.jar.size) headers.cookie = [...this.jar].map(([name, value]) => `${name}=${value}`).join('; ');
    if (init.form) headers['content-type'] = 'application/x-www-form-urlencoded';
    const res = await fetch(url, { method: init.method ?? (init.form ? 'POST' : 'GET'), headers, body: init.form ? new URLSearchParams(init.form).toString() : undefined, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const [name, ...value] = pair.split('=');
      const expired = attributes.some((attribute) => /^\s*max-age=0/i.test(attribute) || /^\s*expires=Thu, 01 Jan 1970/i.test(attribute));
      if (expired) this.jar.delete(name.trim());
      else this.jar.set(name.trim(), value.join('='));
    }
    return res;
  }

  /** Follows redirects on `base` until one leaves it (the application's redirect URI) or a page answers. */
  async follow(url: string, base: string, init: { form?: Record<string, string> } = {}): Promise<{ res: Response; url: string }> {
    let res = await this.request(url, init);
    let current = url;
    for (let hops = 0; hops < 10 && res.status >= 300 && res.status < 400; hops++) {
      current = new URL(res.headers.get('location') as string, current).toString();
      if (!current.startsWith(base)) return { res, url: current };
      res = await this.request(current);
    }
    return { res, url: current };
  }
}

/** The sign-in page's form posted (a password), returning where the service sends the browser next. */
export async function signInThroughPage(browser: CookieBrowser, base: string, loginUrl: string, email: string) {
  const redirect = new URL(loginUrl).searchParams.get('redirect') as string;
  const res = await browser.request(`${base}/auth/login`, { form: { email, password: PASSWORD, redirect } });
  assert.equal(res.status, 302, await res.text());
  return new URL(res.headers.get('location') as string, base).toString();
}

/** openid-client's view of the provider and one application. */
export async function relyingParty(base: string, client: { clientId: string; clientSecret?: string; redirectUri: string; public?: boolean }): Promise<Client> {
  const issuer = await Issuer.discover(base);
  return new issuer.Client({
    client_id: client.clientId,
    ...(client.public ? { token_endpoint_auth_method: 'none' } : { client_secret: client.clientSecret }),
    redirect_uris: [client.redirectUri],
    response_types: ['code'],
  });
}

export { generators };

/** One authorization run through the service's pages: where it ended and the values the application must keep. */
export interface AuthorizeRun {
  callbackUrl: string;
  verifier: string;
  state: string;
  nonce: string;
  consentShown: boolean;
  signInShown: boolean;
}

/**
 * Runs authorize → sign-in (when asked) → consent (Allow, when asked) → the application's callback, following the
 * service's pages as a browser without JavaScript would; answers the callback URL.
 */
export async function authorizeThroughPages(
  browser: CookieBrowser,
  base: string,
  client: Client,
  redirectUri: string,
  email: string,
  params: Record<string, string> = {},
): Promise<AuthorizeRun> {
  const verifier = generators.codeVerifier();
  const state = generators.state();
  const nonce = generators.nonce();
  const url = client.authorizationUrl({ scope: 'openid profile email offline_access', code_challenge: generators.codeChallenge(verifier), code_challenge_method: 'S256', state, nonce, ...params });
  let step = await browser.follow(url, base);
  let consentShown = false;
  let signInShown = false;
  for (let round = 0; round < 6 && step.url.startsWith(base); round++) {
    const html = await step.res.text();
    if (step.url.includes('/auth/login')) {
      signInShown = true;
      step = await browser.follow(await signInThroughPage(browser, base, step.url, email), base);
    } else if (html.includes('http-equiv="refresh"')) {
      step = await browser.follow(/url=([^"]+)"/.exec(html)?.[1]?.replace(/^/, base) as string, base);
    } else if (html.includes('name="decision"')) {
      consentShown = true;
      const action = /action="([^"]+)"/.exec(html)?.[1] as string;
      const csrf = /name="_csrf" value="([^"]*)"/.exec(html)?.[1] as string;
      step = await browser.follow(`${base}${action}`, base, { form: { decision: 'allow', _csrf: csrf } });
    } else {
      assert.fail(`unexpected page at ${step.url}: ${step.res.status} ${html.slice(0, 300)}`);
    }
  }
  assert.ok(step.url.startsWith(redirectUri), `ended at ${step.url}`);
  return { callbackUrl: step.url, verifier, state, nonce, consentShown, signInShown };
}

/** The tokens of one authorization run, redeemed by the application (its checks of state, nonce and the ID token). */
export function redeem(client: Client, redirectUri: string, run: AuthorizeRun) {
  return client.callback(redirectUri, client.callbackParams(run.callbackUrl), { code_verifier: run.verifier, state: run.state, nonce: run.nonce });
}

/** The whole code flow with consent asked (offline_access needs prompt=consent): the application's tokens. */
export async function connectThroughPages(base: string, client: Client, options: { email: string; redirectUri: string }) {
  const run = await authorizeThroughPages(new CookieBrowser(), base, client, options.redirectUri, options.email, { prompt: 'consent' });
  return redeem(client, options.redirectUri, run);
}
