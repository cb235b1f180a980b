import crypto from 'node:crypto';
import { Op } from 'sequelize';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Config } from '../../config/config';
import type { Models } from '../../models';
import { createOidcAdapter } from './adapter';
import { hashClientSecret, OIDC_SCOPES, type OAuthClientService } from './oauth-clients.service';
import { createProviderKeys, publicJwk, type PrivateJwk } from './provider-keys';
import type { ProviderPage } from '../../http/provider-page';

/** The provider's endpoints under /oidc; discovery stays at the well-known path clients look at. */
export const OIDC_ROUTES = {
  authorization: '/oidc/auth',
  token: '/oidc/token',
  userinfo: '/oidc/userinfo',
  jwks: '/.well-known/jwks.json',
  end_session: '/oidc/session/end',
  revocation: '/oidc/token/revocation',
  introspection: '/oidc/token/introspection',
  code_verification: '/oidc/device',
  device_authorization: '/oidc/device/auth',
  pushed_authorization_request: '/oidc/request',
  backchannel_authentication: '/oidc/backchannel',
  registration: '/oidc/reg',
  challenge: '/oidc/challenge',
} as const;

export const INTERACTION_PATH = '/oidc/interaction';

/** The standard claims each scope releases (CONTRACT 14). `sid` (the sign-in session's id) and `amr` ride on openid. */
const CLAIMS = {
  openid: ['sub', 'sid', 'amr'],
  profile: ['name', 'preferred_username', 'given_name', 'family_name'],
  email: ['email', 'email_verified'],
};

const TTL = {
  AuthorizationCode: 60,
  IdToken: 3600,
  AccessToken: 3600,
  ClientCredentials: 600,
  Interaction: 3600,
  Grant: 14 * 86_400,
  Session: 14 * 86_400,
  RefreshToken: 14 * 86_400,
};

// oidc-provider (and panva's libraries under it) is ESM-only. This project compiles to CommonJS, where tsc
// rewrites `import()` into `require()`; a Function keeps the real dynamic import, loaded at the first OIDC request.
// eslint-disable-next-line @typescript-eslint/no-implied-eval
const importEsm = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The few parts of oidc-provider's Provider the service uses (the package ships no types for v8). */
export interface OidcProviderInstance {
  proxy: boolean;
  callback(): (req: IncomingMessage, res: ServerResponse) => void;
  interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
  interactionFinished(req: IncomingMessage, res: ServerResponse, result: Record<string, unknown>, options?: { mergeWithLastSubmission?: boolean }): Promise<void>;
  Grant: GrantConstructor;
  Client: { prototype: { compareClientSecret(this: { clientSecret: string }, actual: string): boolean } };
  on(event: string, listener: (...args: any[]) => void): void; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export interface InteractionDetails {
  uid: string;
  iat?: number;
  params: Record<string, string | undefined>;
  prompt: { name: string; reasons: string[]; details: Record<string, unknown> };
  session?: { accountId?: string };
  grantId?: string;
}

export interface GrantInstance {
  addOIDCScope(scope: string): void;
  addOIDCClaims(claims: string[]): void;
  addResourceScope(resource: string, scope: string): void;
  save(): Promise<string>;
}

export interface GrantConstructor {
  new (options: { accountId: string; clientId: string }): GrantInstance;
  find(id: string): Promise<GrantInstance | undefined>;
}

export type Account = { accountId: string; claims(): Promise<Record<string, unknown>> };


/**
 * The OpenID Provider of CONTRACT 14: panva's certified oidc-provider, configured rather than rewritten. Its
 * storage is the adapter over our database, its clients our `oauth_clients` rows (secrets compared hashed),
 * its signing key the sealed RS256 key of provider-keys.ts, its accounts our users; its interactions (sign-in,
 * consent) are our own pages (src/controllers/oidc-interaction.controller.ts). A token whose grant's sign-in
 * session has ended finds no account, so the provider refuses it: ending a session ends its OIDC tokens.
 * Built at the first OIDC request, once per app.
 */
export function createOidcProvider(deps: {
  config: Pick<Config, 'jwtIssuer' | 'jwtSecret' | 'isProduction'>;
  models: Models;
  clients: Pick<OAuthClientService, 'metadata'>;
  page: ProviderPage;
}) {
  const { config, models, clients, page } = deps;
  const keys = createProviderKeys({ models, jwtSecret: config.jwtSecret });
  let building: Promise<{ provider: OidcProviderInstance; jwk: PrivateJwk }> | null = null;

  /** The sign-in session (CONTRACT 8) a grant belongs to, when it is still live. */
  async function liveSessionOf(grantId: string): Promise<string | null> {
    const grant = await models.OidcGrant.findByPk(grantId);
    if (!grant) return null;
    const session = await models.Session.findOne({ where: { id: grant.sessionId, revokedAt: null, expiresAt: { [Op.gt]: new Date() } } });
    return session ? session.id : null;
  }

  async function findAccount(_ctx: unknown, sub: string, token?: { grantId?: string; kind?: string }): Promise<Account | undefined> {
    let sid: string | null = null;
    if (token?.grantId) {
      sid = await liveSessionOf(token.grantId);
      if (!sid) return undefined;
    }
    const user = await models.User.findByPk(sub);
    if (!user || !user.active) return undefined;
    return {
      accountId: user.id,
      async claims() {
        const name = [user.firstName, user.lastName].filter(Boolean).join(' ') || user.username;
        return {
          sub: user.id,
          ...(sid ? { sid } : {}),
          name,
          preferred_username: user.username,
          given_name: user.firstName ?? undefined,
          family_name: user.lastName ?? undefined,
          email: user.email,
          email_verified: user.emailVerifiedAt !== null,
        };
      },
    };
  }

  async function build() {
    const { default: Provider } = (await importEsm('oidc-provider')) as { default: new (issuer: string, configuration: Record<string, unknown>) => OidcProviderInstance };
    const jwk = await keys.signingJwk();
    const cookieKey = crypto.hkdfSync('sha256', Buffer.from(config.jwtSecret, 'utf8'), 'auth-service', 'oidc-cookies.v1', 32);
    const provider = new Provider(config.jwtIssuer, {
      adapter: createOidcAdapter(models, clients.metadata),
      findAccount,
      claims: CLAIMS,
      scopes: [...OIDC_SCOPES],
      conformIdTokenClaims: false,
      responseTypes: ['code'],
      clientAuthMethods: ['client_secret_basic', 'client_secret_post', 'none'],
      pkce: { methods: ['S256'], required: () => true },
      enabledJWA: { idTokenSigningAlgValues: ['RS256'], userinfoSigningAlgValues: ['RS256'], introspectionSigningAlgValues: ['RS256'] },
      jwks: { keys: [jwk] },
      cookies: {
        keys: [Buffer.from(cookieKey).toString('base64url')],
        long: { signed: true, secure: config.isProduction, sameSite: 'lax' },
        short: { signed: true, secure: config.isProduction, sameSite: 'lax' },
      },
      routes: OIDC_ROUTES,
      ttl: TTL,
      interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `${INTERACTION_PATH}/${interaction.uid}` },
      // Refresh tokens only when the application asked for offline access (CONTRACT 14), rotated at every use.
      issueRefreshToken: async (_ctx: unknown, client: { grantTypeAllowed(type: string): boolean }, code: { scopes: Set<string> }) =>
        client.grantTypeAllowed('refresh_token') && code.scopes.has('offline_access'),
      rotateRefreshToken: true,
      features: {
        devInteractions: { enabled: false },
        introspection: { enabled: true },
        revocation: { enabled: true },
        clientCredentials: { enabled: true },
        rpInitiatedLogout: {
          enabled: true,
          logoutSource: async (ctx: { body: string; type: string }, form: string) => {
            ctx.type = 'html';
            ctx.body = await page('logout', { form });
          },
          postLogoutSuccessSource: async (ctx: { body: string; type: string }) => {
            ctx.type = 'html';
            ctx.body = await page('logged-out', {});
          },
        },
      },
      renderError: async (ctx: { body: string; type: string }, out: { error: string; error_description?: string }) => {
        ctx.type = 'html';
        ctx.body = await page('error', { error: out.error, description: out.error_description ?? '' });
      },
    });
    // BASE_URL, never the request's headers, names the provider's endpoints (CONTRACT 1): the mount sets them from it.
    provider.proxy = true;
    // Stored secrets are hashes: the presented secret is hashed before the provider's constant-time comparison.
    const compare = provider.Client.prototype.compareClientSecret;
    provider.Client.prototype.compareClientSecret = function (this: { clientSecret: string }, actual: string) {
      return compare.call(this, hashClientSecret(actual));
    };
    return { provider, jwk };
  }

  /** The provider, built once (concurrent first requests share the build; a failed build is tried again). */
  function instance() {
    building ??= build().catch((err: unknown) => {
      building = null;
      throw err;
    });
    return building;
  }

  return {
    provider: async () => (await instance()).provider,
    /** The provider key's public half, for the service's JWKS. */
    publicJwks: async () => [publicJwk((await instance()).jwk)],
    liveSessionOf,
  };
}

export type OidcProvider = ReturnType<typeof createOidcProvider>;
