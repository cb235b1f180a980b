import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

// oidc-provider is ESM-only and ships no types for v8; see src/services/oidc-provider/provider.ts for the same import.
// eslint-disable-next-line @typescript-eslint/no-implied-eval
const importEsm = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Who signs in at the stand-in IdP next: the claims its ID token and userinfo assert. */
export interface IdpPerson {
  sub: string;
  email?: string;
  email_verified?: boolean;
  given_name?: string;
  family_name?: string;
}

export const IDP_CLIENT = { clientId: 'auth-service-sso', clientSecret: crypto.randomBytes(24).toString('base64url') };

/**
 * An enterprise OpenID Connect identity provider on loopback: panva's oidc-provider itself (a certified
 * implementation: discovery, JWKS, code flow with PKCE, signed ID tokens with nonce, userinfo). Its login
 * interaction signs in whoever `as()` names, without a page; consent is given by a grant loaded at once.
 */
export class OidcIdp {
  private server?: http.Server;
  private person: IdpPerson = { sub: 'nobody' };
  issuer = '';

  /** Starts the IdP for a client whose redirect URI is `redirectUri`. */
  async start(redirectUris: string[]): Promise<void> {
    const { default: Provider } = await importEsm('oidc-provider');
    this.server = http.createServer();
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.issuer = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    const signingKey = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });
    const provider = new Provider(this.issuer, {
      clients: [{ client_id: IDP_CLIENT.clientId, client_secret: IDP_CLIENT.clientSecret, redirect_uris: redirectUris, grant_types: ['authorization_code'], response_types: ['code'] }],
      jwks: { keys: [{ ...signingKey, kid: 'idp-key', use: 'sig', alg: 'RS256' }] },
      cookies: { keys: [crypto.randomBytes(16).toString('hex')] },
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['given_name', 'family_name'] },
      findAccount: (_ctx: unknown, sub: string) => ({ accountId: sub, claims: () => (sub === this.person.sub ? { ...this.person } : { sub }) }),
      interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
      // Consent is not what these tests are about: every client gets the scopes it asks for.
      loadExistingGrant: async (ctx: any) => { // eslint-disable-line @typescript-eslint/no-explicit-any
        const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId: ctx.oidc.session.accountId });
        grant.addOIDCScope('openid email profile');
        await grant.save();
        return grant;
      },
      features: { devInteractions: { enabled: false } },
      ttl: { Interaction: 600, Grant: 600, Session: 600, AccessToken: 600, IdToken: 600 },
    });
    const callback = provider.callback();
    this.server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
      if (req.url?.startsWith('/interaction/')) {
        provider.interactionFinished(req, res, { login: { accountId: this.person.sub } }, { mergeWithLastSubmission: false }).catch((err: Error) => {
          res.statusCode = 500;
          res.end(err.message);
        });
        return;
      }
      callback(req, res);
    });
  }

  /** The person the next sign-in asserts. */
  as(person: IdpPerson): this {
    this.person = person;
    return this;
  }

  /**
   * Follows the IdP's redirects from its authorization URL, as a browser would (its cookies kept for the IdP's
   * origin only), until it sends the browser back to the service: that URL (the callback with code and state).
   */
  async authorize(authorizationUrl: string): Promise<string> {
    const jar = new Map<string, string>();
    let url = authorizationUrl;
    for (let hop = 0; hop < 10; hop++) {
      if (!url.startsWith(this.issuer)) return url;
      const res = await fetch(url, { redirect: 'manual', headers: { cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; ') } });
      for (const header of res.headers.getSetCookie()) {
        const [pair] = header.split(';');
        const eq = pair.indexOf('=');
        jar.set(pair.slice(0, eq), pair.slice(eq + 1));
      }
      const location = res.headers.get('location');
      if (!location) throw new Error(`the IdP answered ${res.status} without a redirect: ${await res.text()}`);
      url = new URL(location, url).toString();
    }
    throw new Error('too many redirects at the IdP');
  }

  async stop(): Promise<void> {
    if (this.server) await new Promise<void>((resolve) => this.server!.close(() => resolve()));
  }
}
