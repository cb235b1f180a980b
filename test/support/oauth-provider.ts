import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import request, { type Response } from 'supertest';
import { ctx } from './context';
import { setCookies } from './auth';

export type ProviderName = 'github' | 'google';

/** A GitHub user as /user and /user/emails describe them. */
export interface GitHubPerson {
  id: number;
  login: string;
  name?: string | null;
  /** The public profile email (null: none). */
  email?: string | null;
  avatar_url?: string;
  emails?: Array<{ email: string; primary: boolean; verified: boolean; visibility?: string | null }>;
}

/** A Google account as the userinfo endpoint describes it. */
export interface GooglePerson {
  sub: string;
  email?: string;
  email_verified?: boolean | string;
  name?: string;
  given_name?: string;
  family_name?: string;
  picture?: string;
}

export const CLIENTS: Readonly<Record<ProviderName, { clientId: string; clientSecret: string }>> = {
  github: { clientId: 'gh-client-id', clientSecret: 'gh-client-secret' },
  google: { clientId: 'google-client-id.apps.example', clientSecret: 'google-client-secret' },
};

interface Grant {
  provider: ProviderName;
  person: GitHubPerson | GooglePerson;
  clientId: string;
  redirectUri: string;
  challenge: string | null;
  method: string | null;
}

/** What the provider was asked, for assertions. */
export interface AuthorizeRequest {
  provider: ProviderName;
  query: Record<string, string>;
}

/**
 * A loopback stand-in for GitHub and Google: authorize (302 back with code and state, or a consent page
 * in `consent` mode, as a real provider shows), token (client credentials, redirect_uri, single-use code
 * and PKCE S256 checked, as the real ones do), GitHub's /user and /user/emails, Google's userinfo.
 * Tests say who signs in next with `as()`, and may break the token answer with `tokenAnswer`.
 */
export class OAuthProviderStandIn {
  readonly authorizeRequests: AuthorizeRequest[] = [];
  readonly tokenRequests: Array<Record<string, string>> = [];
  /** The client secret each provider expects (an admin's change is mirrored here by tests). */
  readonly secrets: Record<ProviderName, string> = { github: CLIENTS.github.clientSecret, google: CLIENTS.google.clientSecret };
  /** `consent`: authorize shows a page with an "Authorize" button (a browser clicks it), like a real provider. */
  mode: 'redirect' | 'consent' = 'redirect';
  /** Replaces the token endpoint's success body (e.g. without access_token). */
  tokenAnswer: Record<string, unknown> | null = null;
  private next: Partial<Record<ProviderName, GitHubPerson | GooglePerson>> = {};
  private readonly grants = new Map<string, Grant>();
  private readonly tokens = new Map<string, { provider: ProviderName; person: GitHubPerson | GooglePerson }>();
  private server?: http.Server;
  url = '';

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
  }

  /** The person the next authorization of this provider signs in as. */
  as(provider: 'github', person: GitHubPerson): this;
  as(provider: 'google', person: GooglePerson): this;
  as(provider: ProviderName, person: GitHubPerson | GooglePerson): this {
    this.next[provider] = person;
    return this;
  }

  /** The plugin settings pointing a provider at this stand-in (the URL overrides of CONTRACT 4). */
  settingsFor(provider: ProviderName, enabled = true): Record<string, unknown> {
    const base = `${this.url}/${provider}`;
    const urls =
      provider === 'github'
        ? { authorizationURL: `${base}/authorize`, tokenURL: `${base}/token`, userProfileURL: `${base}/user`, userEmailsURL: `${base}/user/emails` }
        : { authorizationURL: `${base}/authorize`, tokenURL: `${base}/token`, userProfileURL: `${base}/userinfo` };
    return { ...CLIENTS[provider], enabled, ...urls };
  }

  private json(res: http.ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(body));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    const [, provider, ...rest] = url.pathname.split('/') as [string, ProviderName, ...string[]];
    const route = rest.join('/');
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));

    if (route === 'authorize' && req.method === 'GET') return this.authorize(provider, url, res);
    if (route === 'consent' && req.method === 'POST') return this.redirectBack(provider, form, res);
    if (route === 'token' && req.method === 'POST') return this.token(provider, form, res);
    // GitHub's client sends the token in the Authorization header; Google's in the query, which Google accepts too.
    const bearer = /^(?:Bearer|token) (.+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? url.searchParams.get('access_token');
    const holder = bearer ? this.tokens.get(bearer) : undefined;
    if (!holder || holder.provider !== provider) return this.json(res, 401, { message: 'Bad credentials' });
    if (provider === 'github' && route === 'user') {
      const { emails: _emails, ...person } = holder.person as GitHubPerson;
      return this.json(res, 200, { email: null, ...person });
    }
    if (provider === 'github' && route === 'user/emails') return this.json(res, 200, (holder.person as GitHubPerson).emails ?? []);
    if (provider === 'google' && route === 'userinfo') return this.json(res, 200, holder.person);
    this.json(res, 404, { message: 'Not Found' });
  }

  private authorize(provider: ProviderName, url: URL, res: http.ServerResponse): void {
    const query = Object.fromEntries(url.searchParams);
    this.authorizeRequests.push({ provider, query });
    if (this.mode === 'consent') {
      const fields = Object.entries(query)
        .map(([name, value]) => `<input type="hidden" name="${name}" value="${value.replace(/"/g, '&quot;')}">`)
        .join('');
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end(`<!doctype html><title>Authorize</title><h1>Authorize the app</h1><form method="post" action="/${provider}/consent">${fields}<button type="submit">Authorize</button></form>`);
      return;
    }
    this.redirectBack(provider, query, res);
  }

  private redirectBack(provider: ProviderName, query: Record<string, string>, res: http.ServerResponse): void {
    const person = this.next[provider];
    const back = new URL(query.redirect_uri);
    if (!person || query.client_id !== CLIENTS[provider].clientId) {
      back.searchParams.set('error', 'access_denied');
      back.searchParams.set('error_description', 'The user has denied your application access.');
    } else {
      const code = crypto.randomBytes(16).toString('hex');
      this.grants.set(code, {
        provider, person, clientId: query.client_id, redirectUri: query.redirect_uri,
        challenge: query.code_challenge ?? null, method: query.code_challenge_method ?? null,
      });
      back.searchParams.set('code', code);
    }
    if (query.state) back.searchParams.set('state', query.state);
    res.writeHead(302, { Location: back.toString() });
    res.end();
  }

  private token(provider: ProviderName, form: Record<string, string>, res: http.ServerResponse): void {
    this.tokenRequests.push(form);
    const grant = this.grants.get(form.code);
    // Single use: a code is gone after its first exchange, whatever the outcome.
    this.grants.delete(form.code);
    if (form.client_id !== CLIENTS[provider].clientId || form.client_secret !== this.secrets[provider]) return this.json(res, 401, { error: 'invalid_client' });
    if (!grant || grant.provider !== provider || grant.redirectUri !== form.redirect_uri) return this.json(res, 400, { error: 'invalid_grant' });
    if (grant.challenge) {
      const computed = form.code_verifier ? crypto.createHash('sha256').update(form.code_verifier).digest('base64url') : null;
      if (grant.method !== 'S256' || computed !== grant.challenge) return this.json(res, 400, { error: 'invalid_grant', error_description: 'PKCE verification failed' });
    }
    const accessToken = crypto.randomBytes(20).toString('hex');
    this.tokens.set(accessToken, { provider, person: grant.person });
    this.json(res, 200, this.tokenAnswer ?? { access_token: accessToken, token_type: 'bearer', scope: 'read:user,user:email', refresh_token: 'refresh-secret' });
  }
}

/** Turns the oauth-providers plugin on with the given providers pointed at the stand-in. */
export async function configureProviders(providers: Partial<Record<ProviderName, Record<string, unknown>>>, active = true): Promise<void> {
  const { models } = ctx();
  await models.Plugin.upsert({ name: 'oauth-providers', active, settings: { providers } });
}

/** Both providers enabled against the stand-in. */
export function enableBoth(stand: OAuthProviderStandIn): Promise<void> {
  return configureProviders({ github: stand.settingsFor('github'), google: stand.settingsFor('google') });
}

/** The path + query of an absolute URL (the app under test is reached through supertest, not BASE_URL). */
export function pathOf(url: string): string {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
}

/** The browser-binding cookie a start answer set (one per flow, named after its state), with its name. */
export function bindingCookieOf(res: Response): { name: string; value: string; attributes: Record<string, string | true> } {
  const found = Object.entries(setCookies(res)).find(([name]) => /^(__Host-)?oauth_binding_/.test(name));
  if (!found) throw new Error('no oauth_binding cookie was set');
  return { name: found[0], ...found[1] };
}

/**
 * Where a callback sends the browser: its Location, or, for a linking callback (which answers with a page of
 * ours that moves on by itself, so the navigation is same-site), that page's refresh target.
 */
export function landing(res: Response): string {
  if (res.status === 302) return res.headers.location as string;
  const match = /<meta http-equiv="refresh" content="0;url=([^"]+)">/.exec(res.text);
  if (res.status !== 200 || !match) throw new Error(`no landing: ${res.status}`);
  return match[1].replace(/&amp;/g, '&');
}

/** The names of the sign-in cookies an answer set (a callback also clears its flow's binding cookie, which is none of them). */
export function credentialCookies(res: Response): string[] {
  return Object.keys(setCookies(res)).filter((name) => ['auth_token', 'csrf_token', 'auth_session'].includes(name));
}

/** The Cookie header value of the browser-binding cookie a start answer set. */
export function bindingCookie(res: Response): string {
  const { name, value } = bindingCookieOf(res);
  return `${name}=${value}`;
}

/** Follows the provider's authorize URL (no browser): where it sends the browser back to. */
export async function authorizeAt(location: string): Promise<string> {
  const answer = await fetch(location, { redirect: 'manual' });
  const back = answer.headers.get('location');
  if (answer.status !== 302 || !back) throw new Error(`authorize answered ${answer.status}`);
  return back;
}

export interface Flow {
  start: Response;
  cookie: string;
  callbackPath: string;
  callback: Response;
}

/** A whole sign-in: start, the provider's redirect back, the callback in the same "browser" (cookie). */
export async function signInWith(app: Express, provider: ProviderName, options: { query?: string; cookie?: string } = {}): Promise<Flow> {
  const start = await request(app).get(`/auth/oauth/${provider}${options.query ?? ''}`);
  if (start.status !== 302) throw new Error(`start answered ${start.status} ${JSON.stringify(start.body)}`);
  const cookie = bindingCookie(start);
  const callbackPath = pathOf(await authorizeAt(start.headers.location));
  const callback = await request(app).get(callbackPath).set('Cookie', [cookie, options.cookie].filter(Boolean).join('; '));
  return { start, cookie, callbackPath, callback };
}
