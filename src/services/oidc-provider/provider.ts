import crypto from 'node:crypto';
import { QueryTypes, type Sequelize } from 'sequelize';
import type { Config } from '../../config/config';
import type { Models } from '../../models';
import type { AuthUserRecords } from '../../sessions/auth-user-records';
import { sqlDate } from '../../db/sql-date';
import { createOidcAdapter, destroyGrants } from './adapter';
import { hashClientSecret, OIDC_SCOPES, type OAuthClientService } from './oauth-clients.service';
import { accessTokenIdReader, everyJwk, publicJwk, type ProviderKeys, type ProviderKeySet } from './provider-keys';
import { TTL } from './provider-lifetimes';
import type { ProviderPage } from '../../http/provider-page';
import type { ActivityService } from '../operations/activity.service';
import type { RequestContext } from '../../http/request-context';
import { jsonEtag, notModified } from '../../http/conditional-get';
import { AUTH_COOKIE } from '../../sessions/request-token';
import { INTERACTION_PATH, OIDC_ROUTES } from './provider-paths';
import type { Account, OidcProviderInstance, OidcProviderModule, ProviderContext, StructuredAccessToken } from './provider-types';


/** The standard claims each scope releases (CONTRACT 14). `sid` (the sign-in session's id) and `amr` ride on openid. */
const CLAIMS = {
  openid: ['sub', 'sid', 'amr'],
  profile: ['name', 'preferred_username', 'given_name', 'family_name'],
  email: ['email', 'email_verified'],
};

/**
 * Whether a grant's sign-in session (CONTRACT 8) is live: asked at every token request, introspection and
 * userinfo, so one hand-written statement (as the adapter's, for the same reason) instead of two model reads.
 */
const LIVE_SESSION_OF_GRANT = `SELECT s.id FROM oidc_grants g JOIN sessions s ON s.id = g.session_id
  WHERE g.grant_id = ? AND s.revoked_at IS NULL AND s.expires_at > ?`;

/**
 * Access tokens are signed ES256: an RFC 9068 JWT may use any JWS algorithm (its verifier reads it from the
 * JWKS), and a P-256 signature costs about a fifteenth of an RSA-2048 one. ID tokens stay RS256 (enabledJWA
 * below), the one algorithm OpenID Connect Core 15.1 has every client support.
 */
const ACCESS_TOKEN_ALG = 'ES256';

// oidc-provider (and panva's libraries under it) is ESM-only. This project compiles to CommonJS, where tsc
// rewrites `import()` into `require()`; a Function keeps the real dynamic import, loaded at the first OIDC request.
// eslint-disable-next-line @typescript-eslint/no-implied-eval
const importEsm = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * The OpenID Provider of CONTRACT 14: panva's certified oidc-provider, configured rather than rewritten. Its
 * storage is the adapter over our database, its clients our `oauth_clients` rows (secrets compared hashed),
 * its signing keys the sealed RS256 (ID tokens) and ES256 (access tokens) keys of provider-keys.ts, its accounts our users; its interactions (sign-in,
 * consent) are our own pages (src/controllers/oidc-interaction.controller.ts). A token whose grant's sign-in
 * session has ended finds no account, so the provider refuses it: ending a session ends its OIDC tokens.
 * Built at the first OIDC request, and again whenever its key set changes (a rotation on any instance, a replaced
 * key's retirement): requests wait for the new build, never meet a half-built one, and those under way finish on
 * the instance they began with (every artifact is in the database, so either instance serves the next step).
 */
export function createOidcProvider(deps: {
  config: Pick<Config, 'jwtIssuer' | 'jwtSecret'>;
  sequelize: Sequelize;
  keys: Pick<ProviderKeys, 'current'>;
  models: Models;
  authUsers: Pick<AuthUserRecords, 'byId'>;
  clients: Pick<OAuthClientService, 'metadata'>;
  page: ProviderPage;
  activity: Pick<ActivityService, 'record'>;
  /** The browser's sign-in (CONTRACT 8) its auth cookie's token names, when it is valid. */
  signedIn(token: string): Promise<{ userId: string; sessionId: string } | null>;
  /** Ends a sign-in session of CONTRACT 8 everywhere (its tokens, its server session, its grants' tokens). */
  endSession(sessionId: string): Promise<void>;
}) {
  const { config, sequelize, models, authUsers, clients, page, activity, keys } = deps;
  const issuer = config.jwtIssuer;
  /** The build for the key set `id` names: the one requests use, or the one they wait for. */
  let current: { id: string; ready: Promise<{ provider: OidcProviderInstance; callback: ReturnType<OidcProviderInstance['callback']> }> } | null = null;

  /** The sign-in session (CONTRACT 8) a grant belongs to, when it is still live. */
  async function liveSessionOf(grantId: string): Promise<string | null> {
    const [row] = await sequelize.query<{ id: string }>(LIVE_SESSION_OF_GRANT, { replacements: [grantId, sqlDate(sequelize, new Date())], type: QueryTypes.SELECT });
    return row ? row.id : null;
  }

  /** Who a reused code or refresh token belonged to, recorded (CONTRACT 14); the provider has ended the grant's tokens. */
  async function reuseDetected(grantId: string | undefined, kind: string, context: RequestContext): Promise<void> {
    const grant = grantId ? await models.OidcGrant.findByPk(grantId) : null;
    const user = grant ? await models.User.findByPk(grant.userId) : null;
    await activity.record({ action: 'oauth.token_reuse_detected', userId: user?.id ?? null, email: user?.email ?? null, details: { clientId: grant?.clientId ?? null, kind } }, context);
  }

  /**
   * The grant a code or refresh token presented at the token endpoint belongs to: the refresh token the provider
   * has loaded (it removes the row meanwhile), or the code's stored row (the provider has not loaded it yet).
   */
  async function grantOfPresented(ctx: ProviderContext): Promise<{ grantId?: string; kind: string }> {
    if (ctx.oidc.params?.grant_type === 'refresh_token') return { grantId: ctx.oidc.entities?.RefreshToken?.grantId, kind: 'RefreshToken' };
    const code = ctx.oidc.params?.code;
    const row = typeof code === 'string' ? await models.OidcPayload.findOne({ attributes: ['grantId'], where: { model: 'AuthorizationCode', id: code } }) : null;
    return { grantId: row?.grantId ?? undefined, kind: 'AuthorizationCode' };
  }

  /**
   * Access tokens are RFC 9068 JWTs, which oidc-provider does not store; this stores each one's record under its
   * `jti` (as the opaque format would) so that introspection, userinfo, revocation and the end of its grant or
   * session reach it. The record leaves out the audience: the audience is this service (the issuer), whose
   * userinfo endpoint is one of its resources, while oidc-provider's userinfo refuses any token naming one.
   */
  async function storeJwtAccessToken(token: StructuredAccessToken['token'], payload: StructuredAccessToken['payload']): Promise<void> {
    const fields = Object.fromEntries(token.constructor.IN_PAYLOAD.filter((field) => field !== 'aud' && token[field] !== undefined).map((field) => [field, token[field]]));
    const record = { ...fields, iat: payload.iat, exp: payload.exp, ...(token.extra === undefined ? {} : { extra: token.extra }) };
    await (token as unknown as { adapter: { upsert(id: string, payload: unknown, expiresIn: number): Promise<void> } }).adapter.upsert(token.jti, record, Math.max(1, payload.exp - Math.floor(Date.now() / 1000)));
  }

  /**
   * RP-initiated logout ends the service's sign-in too (CONTRACT 14): the one the application's ID token names,
   * or the one of this browser's auth cookie. Its OIDC grants end with it (findAccount, introspection).
   */
  async function endSignIn(userId: string, sessionId: string, context: RequestContext): Promise<void> {
    const session = await models.Session.findOne({ where: { id: sessionId, userId, revokedAt: null } });
    if (!session) return;
    await deps.endSession(session.id);
    const user = await models.User.findByPk(userId);
    await activity.record({ action: 'auth.logout', userId, email: user?.email ?? null, details: { scope: 'token', via: 'oidc_end_session' } }, context);
  }

  /** The sign-in to end at the logout endpoint: the ID token hint's (validated by the provider), else the browser's. */
  async function signInToEnd(ctx: ProviderContext): Promise<{ userId: string; sessionId: string } | null> {
    const hint = ctx.oidc.entities?.IdTokenHint?.payload;
    if (hint && typeof hint.sub === 'string' && typeof hint.sid === 'string') return { userId: hint.sub, sessionId: hint.sid };
    const token = ctx.cookies.get(AUTH_COOKIE, { signed: false });
    return token ? deps.signedIn(token) : null;
  }

  async function findAccount(_ctx: unknown, sub: string, token?: { grantId?: string; kind?: string }): Promise<Account | undefined> {
    let sid: string | null = null;
    if (token?.grantId) {
      sid = await liveSessionOf(token.grantId);
      if (!sid) return undefined;
    }
    const record = await authUsers.byId(sub);
    if (!record || !record.active) return undefined;
    const { user } = record;
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
          email_verified: user.emailVerified,
        };
      },
    };
  }

  async function build(set: ProviderKeySet) {
    const { default: Provider, errors, interactionPolicy } = (await importEsm('oidc-provider')) as OidcProviderModule;
    // Signing keys first, replaced keys marked verify-only: ID tokens take the first RS256 key that may sign.
    const jwks = everyJwk(set);
    const accessTokenId = accessTokenIdReader(jwks);

    // A sign-in the service has since ended (logout, revocation) is no sign-in for the provider either: the
    // provider's own session cookie outlives it, so an application whose grant's session ended signs in again.
    // That dead grant is removed (its tokens were refused already): the sign-in that follows makes a new grant
    // tied to the new session, rather than bringing the old grant's tokens back to life.
    const policy = interactionPolicy.base();
    policy.get('login').checks.add(new interactionPolicy.Check('session_ended', 'End-User authentication is required', async (ctx: ProviderContext) => {
      const grantId = ctx.oidc.client && ctx.oidc.session?.accountId ? ctx.oidc.session.grantIdFor(ctx.oidc.client.clientId) : undefined;
      if (!grantId || ctx.oidc.result?.login || (await liveSessionOf(grantId))) return interactionPolicy.Check.NO_NEED_TO_PROMPT;
      await destroyGrants(models, [grantId]);
      return interactionPolicy.Check.REQUEST_PROMPT;
    }));

    // Secure cookies exactly when the public address is https: Koa refuses to set one on a request it sees as
    // plain http (the mount tells it the scheme of BASE_URL), which answered 500 on an http BASE_URL in production.
    const secureCookies = new URL(issuer).protocol === 'https:';
    const cookieKey = crypto.hkdfSync('sha256', Buffer.from(config.jwtSecret, 'utf8'), 'auth-service', 'oidc-cookies.v1', 32);
    const provider = new Provider(config.jwtIssuer, {
      adapter: createOidcAdapter(sequelize, models, clients.metadata, {
        accessTokenId,
        consumedTwice: async (grantId, kind) => {
          await reuseDetected(grantId, kind, { ip: null, userAgent: null });
          return new errors.InvalidGrant(`${kind === 'RefreshToken' ? 'refresh token' : 'authorization code'} already used`);
        },
      }),
      findAccount,
      claims: CLAIMS,
      scopes: [...OIDC_SCOPES],
      conformIdTokenClaims: false,
      responseTypes: ['code'],
      clientAuthMethods: ['client_secret_basic', 'client_secret_post', 'none'],
      pkce: { methods: ['S256'], required: () => true },
      enabledJWA: { idTokenSigningAlgValues: ['RS256'], userinfoSigningAlgValues: ['RS256'], introspectionSigningAlgValues: ['RS256'] },
      jwks: { keys: jwks.map((jwk) => ({ ...jwk })) },
      cookies: {
        keys: [Buffer.from(cookieKey).toString('base64url')],
        long: { signed: true, secure: secureCookies, sameSite: 'lax' },
        short: { signed: true, secure: secureCookies, sameSite: 'lax' },
      },
      routes: OIDC_ROUTES,
      ttl: TTL,
      interactions: { policy, url: (_ctx: unknown, interaction: { uid: string }) => `${INTERACTION_PATH}/${interaction.uid}` },
      // The provider ends the grant's tokens on a reused code or superseded refresh token; at the token endpoint
      // that is reuse, recorded here (the hook runs before the removal, while the presented row still names its grant).
      revokeGrantPolicy: async (ctx: ProviderContext) => {
        if (ctx.oidc.route === 'token') {
          const { grantId, kind } = await grantOfPresented(ctx);
          await reuseDetected(grantId, kind, { ip: ctx.ip || null, userAgent: ctx.get('user-agent').slice(0, 512) || null });
        }
        return true;
      },
      formats: {
        customizers: { jwt: (_ctx: unknown, token: StructuredAccessToken['token'], structured: StructuredAccessToken) => storeJwtAccessToken(token, structured.payload) },
      },
      // Refresh tokens only when the application asked for offline access (CONTRACT 14), rotated at every use.
      issueRefreshToken: async (_ctx: unknown, client: { grantTypeAllowed(type: string): boolean }, code: { scopes: Set<string> }) =>
        client.grantTypeAllowed('refresh_token') && code.scopes.has('offline_access'),
      rotateRefreshToken: true,
      features: {
        devInteractions: { enabled: false },
        // Introspection answers authenticated clients only, and a token whose sign-in session ended is inactive.
        introspection: {
          enabled: true,
          allowedPolicy: async (_ctx: unknown, client: { clientAuthMethod: string }, token: { grantId?: string }) =>
            client.clientAuthMethod !== 'none' && (!token.grantId || (await liveSessionOf(token.grantId)) !== null),
        },
        // Every access token is for the service itself (its API and userinfo), as an RFC 9068 JWT signed with the
        // provider's ES256 key, so other services verify it from the JWKS; no other resource is known.
        resourceIndicators: {
          enabled: true,
          defaultResource: () => issuer,
          useGrantedResource: () => true,
          getResourceServerInfo: (_ctx: unknown, resource: string) => {
            if (resource !== issuer) throw new errors.InvalidTarget();
            const sign = { alg: ACCESS_TOKEN_ALG, kid: set.signing[ACCESS_TOKEN_ALG].kid };
            return { scope: OIDC_SCOPES.join(' '), audience: issuer, accessTokenFormat: 'jwt', accessTokenTTL: TTL.AccessToken, jwt: { sign } };
          },
        },
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
    // Discovery is the same for every request of an instance: an ETag lets clients revalidate it for nothing.
    provider.use(async (ctx: ProviderContext, next: () => Promise<void>) => {
      await next();
      if (ctx.path !== '/.well-known/openid-configuration' || ctx.status !== 200) return;
      const etag = jsonEtag(ctx.body);
      ctx.set('ETag', etag);
      if (notModified(ctx.get('if-none-match'), etag)) ctx.status = 304;
    });
    provider.use(async (ctx: ProviderContext, next: () => Promise<void>) => {
      await next();
      const context = { ip: ctx.ip || null, userAgent: ctx.get('user-agent').slice(0, 512) || null };
      // No provider route matched (a 404 the provider draws): there is no oidc context.
      if (!(ctx as Partial<ProviderContext>).oidc) return;
      const { route, params, entities, session } = ctx.oidc;
      // With an ID token hint and a registered post-logout URI the application has said who is leaving: no
      // question; the sign-in ends and the browser goes back with state. (The provider has checked both, and
      // drawn the question page this replaces.)
      if (route === 'end_session' && ctx.status === 200 && entities?.IdTokenHint && typeof params?.post_logout_redirect_uri === 'string') {
        const ending = await signInToEnd(ctx);
        if (ending) await endSignIn(ending.userId, ending.sessionId, context);
        await session?.destroy?.();
        const target = new URL(params.post_logout_redirect_uri);
        if (typeof params.state === 'string') target.searchParams.set('state', params.state);
        ctx.status = 303;
        ctx.redirect(target.href);
        return;
      }
      // The user answered the logout question: "yes" ends the service's sign-in too. Only an answer to our
      // question: without a provider session the provider posts "yes" by itself (there is nothing of its own to
      // end), which must not sign the browser out of the service unasked. The answer was a form post, and the
      // CSP's form-action 'self' would stop its redirect to the application's site: a page of ours moves on.
      if (route === 'end_session_confirm' && ctx.status === 303) {
        if (params?.logout && session?.accountId) {
          const ending = await signInToEnd(ctx);
          if (ending) await endSignIn(ending.userId, ending.sessionId, context);
        }
        const location = ctx.response.get('location');
        if (new URL(location, issuer).origin !== new URL(issuer).origin) {
          ctx.status = 200;
          ctx.type = 'html';
          ctx.body = await page('redirect', { target: location });
        }
      }
    });
    // BASE_URL, never the request's headers, names the provider's endpoints (CONTRACT 1): the mount sets them from it.
    provider.proxy = true;
    // Stored secrets are hashes: the presented secret is hashed before the provider's constant-time comparison.
    const compare = provider.Client.prototype.compareClientSecret;
    provider.Client.prototype.compareClientSecret = function (this: { clientSecret: string }, actual: string) {
      return compare.call(this, hashClientSecret(actual));
    };
    return { provider, callback: provider.callback() };
  }

  /**
   * The provider for the current key set (cached by the key store's version, so no table read per request):
   * concurrent requests share a build, a failed build is tried again at the next request.
   */
  async function instance() {
    const set = await keys.current();
    if (current?.id !== set.id) {
      const ready = build(set);
      const attempt = { id: set.id, ready };
      current = attempt;
      ready.catch(() => {
        if (current === attempt) current = null;
      });
    }
    return current.ready;
  }

  return {
    provider: async () => (await instance()).provider,
    /** The request handler of the provider for the current key set. */
    handler: async () => (await instance()).callback,
    /** The public halves of the provider's keys, replaced ones in their window included, for the service's JWKS. */
    publicJwks: async () => everyJwk(await keys.current()).map(publicJwk),
    liveSessionOf,
  };
}

export type OidcProvider = ReturnType<typeof createOidcProvider>;
