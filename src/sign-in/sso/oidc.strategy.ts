import crypto from 'node:crypto';
import type { Request, Response } from 'express';
import { Strategy } from 'passport-strategy';
import type { Strategy as OidcStrategy, BaseClient, TokenSet, UserinfoResponse } from 'openid-client';
import type { Config } from '../../config/config';
import type { KeyValueStore } from '../../store';
import { withNotice, type NoticeCode } from '../../http/notices';
import { requestContext } from '../../http/request-context';
import { toAuthUser } from '../../sessions/auth-user';
import { bindingCookieName } from '../../oauth/oauth-state';
import { discoverIssuer, oidcClient } from '../../services/sso/oidc-issuer';
import { openidClient } from '../../services/sso/sso-libraries';
import { ssoUrls } from '../../services/sso/sso-urls';
import type { SsoProviderRecord, SsoProviderService } from '../../services/sso/sso-providers.service';
import type { SsoAccountService, SsoIdentity, SsoRefusal } from '../../services/sso/sso-accounts.service';
import type { SignInFailure } from '../sign-in-result';

/** How long a started sign-in may take at the provider (the record and its cookie expire together). */
const FLOW_TTL_SECONDS = 600;
const KEY_PREFIX = 'sso:oidc:';
/** Where openid-client's strategy keeps a flow's checks on `req.session`: here a stand-in filled from the store. */
const SESSION_KEY = 'sso';
const SIGN_IN_PAGE = '/auth/login';

/** What a started flow keeps in the shared store until its callback: the checks openid-client needs, and its binding. */
interface FlowRecord {
  slug: string;
  /** state, nonce, PKCE code_verifier, response_type, as openid-client's strategy wrote them. */
  checks: Record<string, string>;
  /** SHA-256 of the per-flow cookie's value: a callback in another browser finds no match. */
  binding: string;
  redirect: string | null;
}

/** The notice each refusal shows on the sign-in page (the activity row keeps the precise reason). */
export const SSO_REFUSAL_NOTICES: Readonly<Record<SsoRefusal, NoticeCode>> = {
  no_email: 'sso_wrong_domain',
  unverified_email: 'sso_wrong_domain',
  wrong_domain: 'sso_wrong_domain',
  no_account: 'sso_no_account',
  inactive: 'sso_inactive',
  already_linked: 'sso_failed',
  unavailable: 'sso_unavailable',
  failed: 'sso_failed',
};

const sha256 = (value: string) => crypto.createHash('sha256').update(value).digest();

/** A refused SSO sign-in: back to the sign-in page with the notice, no session, and an `sso.refused` row. */
export function ssoRefusal(slug: string, reason: SsoRefusal, detail: string | null, user: { id: string; email: string } | null): SignInFailure {
  return {
    message: 'Single sign-on refused',
    redirect: withNotice(SIGN_IN_PAGE, SSO_REFUSAL_NOTICES[reason]),
    audit: { action: 'sso.refused', userId: user?.id ?? null, email: user?.email ?? null, details: { method: 'sso', provider: slug, reason, ...(detail ? { detail } : {}) } },
  };
}

/**
 * OpenID Connect sign-in through an enterprise provider (CONTRACT 15), on openid-client's own Passport strategy:
 * code flow with PKCE, `state` and `nonce`, the ID token's signature (the issuer's JWKS), `iss`, `aud`, `exp` and
 * `nonce` checked by the library. The strategy wants a server session for its checks; it gets a stand-in
 * `req.session` filled from the shared store (keyed by `state`, taken once) and bound to the browser by a per-flow
 * cookie, so any instance can finish a flow another began. Clients are rebuilt when the provider row changes.
 */
export function createSsoOidc(deps: {
  config: Pick<Config, 'baseUrl' | 'isProduction' | 'allowPrivateOutbound'>;
  store: KeyValueStore;
  providers: Pick<SsoProviderService, 'bySlug' | 'clientSecret' | 'scopesOf'>;
  accounts: Pick<SsoAccountService, 'signIn'>;
}) {
  const { config, store, providers } = deps;
  const hostOnly = config.baseUrl.startsWith('https:');
  const cookieAttributes = { httpOnly: true, sameSite: 'lax' as const, secure: config.isProduction || hostOnly, path: hostOnly ? '/' : '/auth/sso' };
  // Per process, and only a cache: the row (by its updatedAt) decides, so every instance rebuilds after a change.
  const clients = new Map<string, { version: number; client: Promise<BaseClient> }>();

  function clientFor(record: SsoProviderRecord): Promise<BaseClient> {
    const { row } = record;
    const version = row.updatedAt.getTime();
    const cached = clients.get(row.id);
    if (cached && cached.version === version) return cached.client;
    const client = discoverIssuer(row.oidcIssuer ?? '', config.allowPrivateOutbound).then((issuer) =>
      oidcClient(issuer, { clientId: row.oidcClientId ?? '', clientSecret: providers.clientSecret(row), redirectUri: ssoUrls(config.baseUrl, row.slug).oidcRedirectUri }, config.allowPrivateOutbound),
    );
    // A failed discovery is not kept: the next sign-in tries again.
    client.catch(() => clients.delete(row.id));
    clients.set(row.id, { version, client });
    return client;
  }

  function strategyOf(client: BaseClient, record: SsoProviderRecord, verify: (tokenset: TokenSet, userinfo: UserinfoResponse) => void): OidcStrategy<unknown> {
    // Three parameters: openid-client then fetches the userinfo (an ID token need not carry the email), checked to name the same subject.
    return new (openidClient().Strategy)({ client, params: { scope: providers.scopesOf(record.row).join(' ') }, usePKCE: true, sessionKey: SESSION_KEY }, (tokenset: TokenSet, userinfo: UserinfoResponse, _done: unknown) => verify(tokenset, userinfo));
  }

  /** The provider's authorization URL for a new flow, its checks stored and bound to this browser by a cookie. */
  async function authorizationUrl(res: Response, record: SsoProviderRecord, redirect: string | null): Promise<string> {
    const client = await clientFor(record);
    const standIn = { method: 'GET', url: '/', session: {} as Record<string, Record<string, string>> };
    const url = await new Promise<string>((resolve, reject) => {
      const strategy = strategyOf(client, record, () => reject(new Error('unexpected callback')));
      Object.assign(strategy, { redirect: resolve, error: reject, fail: () => reject(new Error('could not start')), success: () => reject(new Error('unexpected success')) });
      // openid-client adds a nonce by itself only for implicit flows: the code flow gets one here.
      strategy.authenticate(standIn as unknown as Request, { nonce: openidClient().generators.nonce() });
    });
    const checks = standIn.session[SESSION_KEY];
    const binding = crypto.randomBytes(32).toString('base64url');
    const flow: FlowRecord = { slug: record.row.slug, checks, binding: sha256(binding).toString('base64url'), redirect };
    await store.set(KEY_PREFIX + checks.state, JSON.stringify(flow), FLOW_TTL_SECONDS);
    res.cookie(bindingCookieName(checks.state, hostOnly, 'sso'), binding, { ...cookieAttributes, maxAge: FLOW_TTL_SECONDS * 1000 });
    return url;
  }

  /** The callback (`GET /auth/sso/:slug/callback`) as a Passport strategy: success to the session step, every refusal to the sign-in page. */
  class SsoOidcCallbackStrategy extends Strategy {
    readonly name = 'sso-oidc';

    override authenticate(req: Request): void {
      const slug = String(req.params.slug);
      const refuse = (reason: SsoRefusal, detail: string | null = null, user: { id: string; email: string } | null = null) => this.fail(ssoRefusal(slug, reason, detail, user), 302);
      this.finish(req, slug, refuse).catch((err: unknown) => this.error(err as Error));
    }

    async finish(req: Request, slug: string, refuse: (reason: SsoRefusal, detail?: string | null, user?: { id: string; email: string } | null) => void): Promise<void> {
      const res = req.res as Response;
      const state = (req.query as Record<string, unknown>).state;
      if (typeof state !== 'string' || state === '' || state.length > 200) return refuse('failed', 'state_missing');
      const raw = await store.take(KEY_PREFIX + state);
      const cookieName = bindingCookieName(state, hostOnly, 'sso');
      res.clearCookie(cookieName, cookieAttributes);
      const flow = raw ? (JSON.parse(raw) as FlowRecord) : null;
      if (!flow || flow.slug !== slug) return refuse('failed', 'state_invalid');
      const cookie = (req.cookies as Record<string, unknown> | undefined)?.[cookieName];
      if (typeof cookie !== 'string' || !crypto.timingSafeEqual(sha256(cookie), Buffer.from(flow.binding, 'base64url'))) return refuse('failed', 'state_other_browser');

      const record = await providers.bySlug(slug);
      if (!record || record.row.protocol !== 'oidc') return refuse('unavailable');
      let client: BaseClient;
      try {
        client = await clientFor(record);
      } catch {
        return refuse('unavailable', 'discovery_failed');
      }
      const verify = (tokenset: TokenSet, userinfo: UserinfoResponse) => {
        const claims = { ...userinfo, ...tokenset.claims() };
        const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
        const identity: SsoIdentity = {
          subject: claims.sub,
          email: text(claims.email) ?? null,
          firstName: text(claims.given_name),
          lastName: text(claims.family_name),
          ...(claims.email_verified === false ? { emailVerified: false } : {}),
        };
        deps.accounts.signIn(record, identity, requestContext(req)).then((outcome) => {
          if (!outcome.ok) return refuse(outcome.reason, null, outcome.user);
          const details = { provider: slug, ...(outcome.created ? { created: true, role: outcome.user.role } : {}), ...(outcome.linked ? { linked: true } : {}) };
          this.success(toAuthUser(outcome.user), { method: 'sso', details, redirect: flow.redirect });
        }, (err: unknown) => this.error(err as Error));
      };
      const strategy = strategyOf(client, record, verify);
      // The library's refusals (state or nonce mismatch, a bad signature, an expired token, the provider's error):
      // one notice for the user; the activity row names the check by the library's message up to its first comma
      // (what follows quotes the values compared: a state or a nonce).
      const failed = (err?: unknown) => refuse('failed', err instanceof Error ? err.message.split(',')[0].slice(0, 120) : 'provider_refused');
      Object.assign(strategy, { fail: failed, error: failed, redirect: () => refuse('failed', 'no_code'), success: () => undefined });
      const standIn = { method: 'GET', url: req.originalUrl, session: { [SESSION_KEY]: flow.checks } };
      strategy.authenticate(standIn as unknown as Request, {});
    }
  }

  return { authorizationUrl, strategy: new SsoOidcCallbackStrategy() };
}

export type SsoOidc = ReturnType<typeof createSsoOidc>;
