import type { Request, Response } from 'express';
import { Strategy as GitHubStrategy, type StrategyOptions as GitHubOptions } from 'passport-github2';
import { Strategy as GoogleStrategy, type Profile as GoogleProfile, type StrategyOptions as GoogleOptions, type VerifyCallback } from 'passport-google-oauth20';
import type { StateStore, VerifyFunction } from 'passport-oauth2';
import type { Config } from '../config/config';
import type { KeyValueStore } from '../store';
import type { PluginSettingsReader } from '../plugins';
import type { OAuthProviderSettings } from '../plugins/oauth-providers.plugin';
import { OAUTH_PROVIDERS, PROVIDER_LABELS, type OAuthProviderName } from '../models/oauth-provider-names';
import { AppError } from '../http/app-error';
import { OAuthStateStore, type FlowIntent } from './oauth-state';
import { emailAddress } from '../util/account-text';
import http from 'node:http';
import https from 'node:https';
import { publicOnlyConnection } from '../http/outbound-url';

export const OAUTH_MESSAGES = {
  unknown: 'Unknown OAuth provider',
  disabled: (name: string) => `OAuth provider "${name}" is not configured or not enabled`,
} as const;


/** What a provider says about the person who signed in: the only profile data taken (SPEC 4.3). */
export interface OAuthIdentity {
  provider: OAuthProviderName;
  providerAccountId: string;
  /** Normalised; null when the provider gave none or one the email rule refuses. */
  email: string | null;
  /** Whether the provider vouches for the address (GitHub `verified`, Google `email_verified`). */
  emailVerified: boolean;
  name: string | null;
  avatarUrl: string | null;
}

/** The strategy's view of a passport profile (both packages fill these; `_json` is the provider's raw answer). */
export interface ProviderProfile {
  id: string;
  displayName?: string;
  username?: string;
  emails?: Array<{ value: string; primary?: boolean; verified?: boolean | string }>;
  photos?: Array<{ value: string }>;
  _json?: Record<string, unknown>;
}

const NAME_MAX = 200;
const AVATAR_MAX = 1024;

function text(value: unknown, max: number): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim().slice(0, max) : null;
}

/**
 * A provider's address held to the one email rule, as typed addresses are: a look-alike the provider
 * verified ("admin@exämple.com", Cyrillic "а", fullwidth "ａ") is its own mailbox, never another
 * account's, so it counts as no usable email (the callback's no-email answer), never as a near match.
 */
function normalized(email: string | undefined | null): string | null {
  return emailAddress(email);
}

/**
 * GitHub: the profile's public address when /user/emails marks it verified, else the primary verified
 * address from /user/emails; an address without that mark is kept but counts as unverified.
 */
function githubEmail(profile: ProviderProfile): { email: string | null; emailVerified: boolean } {
  const listed = (profile.emails ?? []).map((entry) => ({ ...entry, value: normalized(entry.value) }));
  const isVerified = (entry: { verified?: boolean | string }) => entry.verified === true;
  const publicEmail = normalized(profile._json?.email as string | undefined);
  if (publicEmail && listed.some((entry) => entry.value === publicEmail && isVerified(entry))) return { email: publicEmail, emailVerified: true };
  const primaryVerified = listed.find((entry) => entry.primary && isVerified(entry) && entry.value);
  if (primaryVerified) return { email: primaryVerified.value, emailVerified: true };
  const fallback = publicEmail ?? listed.find((entry) => entry.primary)?.value ?? null;
  return { email: fallback, emailVerified: false };
}

/** Google: the userinfo address and its `email_verified` (true, or "true" in older answers). */
function googleEmail(profile: ProviderProfile): { email: string | null; emailVerified: boolean } {
  const verified = profile._json?.email_verified;
  return { email: normalized(profile._json?.email as string | undefined), emailVerified: verified === true || verified === 'true' };
}

interface ProviderDefinition {
  scope: string[];
  build(options: BuildOptions, verify: VerifyFunction): GitHubStrategy | GoogleStrategy;
  email(profile: ProviderProfile): { email: string | null; emailVerified: boolean };
}

interface BuildOptions {
  clientID: string;
  clientSecret: string;
  callbackURL: string;
  scope: string[];
  pkce: true;
  store: StateStore;
  settings: OAuthProviderSettings;
}

/** Where each provider's authorization page is when its settings name none (the packages' own defaults). */
const DEFAULT_AUTHORIZATION_URLS: Readonly<Record<OAuthProviderName, string>> = {
  github: 'https://github.com/login/oauth/authorize',
  google: 'https://accounts.google.com/o/oauth2/v2/auth',
};

type UrlSetting = 'authorizationURL' | 'tokenURL' | 'userProfileURL' | 'userEmailsURL';

/** The URL overrides of CONTRACT 4 (GitHub Enterprise, tests), as the package's option names. */
function urlOverrides(settings: OAuthProviderSettings, options: Record<string, UrlSetting>): Record<string, string> {
  return Object.fromEntries(Object.entries(options).flatMap(([option, key]) => (settings[key] ? [[option, settings[key]]] : [])));
}

const DEFINITIONS: Readonly<Record<OAuthProviderName, ProviderDefinition>> = {
  github: {
    scope: ['read:user', 'user:email'],
    // allRawEmails keeps each address's `verified` and `primary` marks from /user/emails.
    build: ({ settings, ...options }, verify) =>
      new GitHubStrategy(
        {
          ...options,
          allRawEmails: true,
          ...urlOverrides(settings, { authorizationURL: 'authorizationURL', tokenURL: 'tokenURL', userProfileURL: 'userProfileURL', userEmailURL: 'userEmailsURL' }),
        } as unknown as GitHubOptions,
        verify,
      ),
    email: githubEmail,
  },
  google: {
    scope: ['openid', 'email', 'profile'],
    build: ({ settings, ...options }, verify) =>
      new GoogleStrategy(
        { ...options, ...urlOverrides(settings, { authorizationURL: 'authorizationURL', tokenURL: 'tokenURL', userProfileURL: 'userProfileURL' }) } as unknown as GoogleOptions,
        verify as (accessToken: string, refreshToken: string, profile: GoogleProfile, done: VerifyCallback) => void,
      ),
    email: googleEmail,
  },
};

function isProviderName(name: string): name is OAuthProviderName {
  return (OAUTH_PROVIDERS as readonly string[]).includes(name);
}

/** A passport-oauth2 strategy built for one request; passport augments it with success/fail/redirect/error. */
export type ProviderStrategy = (GitHubStrategy | GoogleStrategy) & {
  success(user: unknown, info?: unknown): void;
  fail(challenge?: unknown, status?: number): void;
  redirect(url: string, status?: number): void;
  error(err: unknown): void;
};

/**
 * The two providers, configured from the `oauth-providers` plugin on every use: a strategy is built per
 * request from the settings as they are now, so an admin's change (a new secret, a switch) applies at
 * once on every instance and no stale secret is ever kept. `redirect_uri` comes from BASE_URL only.
 */
export function createOAuthProviders(deps: { config: Pick<Config, 'baseUrl' | 'isProduction' | 'allowPrivateOutbound'>; plugins: PluginSettingsReader; store: KeyValueStore }) {
  const { config, plugins, store } = deps;

  /** Every enabled provider (plugin active, provider switched on, credentials present), in a fixed order. */
  async function enabled(): Promise<Array<{ name: OAuthProviderName; label: string }>> {
    if (!(await plugins.isActive('oauth-providers'))) return [];
    const { providers } = await plugins.settingsOf('oauth-providers');
    return OAUTH_PROVIDERS.filter((name) => usable(providers[name])).map((name) => ({ name, label: PROVIDER_LABELS[name] }));
  }

  function usable(settings: OAuthProviderSettings): boolean {
    return settings.enabled && settings.clientId.trim() !== '' && settings.clientSecret.trim() !== '';
  }

  /**
   * The origins of the enabled providers' authorization pages: where a "Link" form post may be redirected,
   * so the profile page's Content-Security-Policy lets its form-action reach them (and no other site).
   */
  async function authorizationOrigins(): Promise<string[]> {
    if (!(await plugins.isActive('oauth-providers'))) return [];
    const { providers } = await plugins.settingsOf('oauth-providers');
    return OAUTH_PROVIDERS.filter((name) => usable(providers[name])).flatMap((name) => {
      const url = URL.parse(providers[name].authorizationURL || DEFAULT_AUTHORIZATION_URLS[name]);
      return url ? [url.origin] : [];
    });
  }

  /** The provider's name checked: 404 for an unknown one (CONTRACT wording). */
  function known(name: string): OAuthProviderName {
    if (!isProviderName(name)) throw AppError.notFound(OAUTH_MESSAGES.unknown);
    return name;
  }

  /** The current settings of an enabled provider: 404 unknown, 400 not configured or not enabled. */
  async function resolve(name: string): Promise<{ name: OAuthProviderName; settings: OAuthProviderSettings }> {
    const provider = known(name);
    const active = await plugins.isActive('oauth-providers');
    const settings = (await plugins.settingsOf('oauth-providers')).providers[provider];
    if (!active || !usable(settings)) throw AppError.badRequest(OAUTH_MESSAGES.disabled(provider));
    return { name: provider, settings };
  }

  function callbackUrl(name: OAuthProviderName): string {
    return `${config.baseUrl}/auth/oauth/${name}/callback`;
  }

  /** A fresh strategy over the current settings, with a state store bound to this request and response. */
  async function strategyFor(name: string, res: Response, intent: FlowIntent, verifyWith: (states: OAuthStateStore) => VerifyFunction) {
    const resolved = await resolve(name);
    const states = new OAuthStateStore(store, res, resolved.name, intent, { secure: config.isProduction, hostOnly: config.baseUrl.startsWith('https:') });
    const verify = verifyWith(states);
    const definition = DEFINITIONS[resolved.name];
    const strategy = definition.build(
      {
        clientID: resolved.settings.clientId,
        clientSecret: resolved.settings.clientSecret,
        callbackURL: callbackUrl(resolved.name),
        scope: definition.scope,
        pkce: true,
        store: states as unknown as StateStore,
        settings: resolved.settings,
      },
      verify,
    ) as ProviderStrategy;
    if (!config.allowPrivateOutbound) publicOnly(strategy, resolved.name, resolved.settings);
    return { name: resolved.name, strategy, states };
  }

  /**
   * The server's own requests to a provider (the token exchange, the profile and email reads, which carry the
   * client secret and the user's code) reach only public addresses, judged as each connection is made: an
   * endpoint URL whose name was re-pointed at an internal address after it was saved gets nothing (issue 26,
   * finding 4; the settings were judged when saved). Through node-oauth's own agent option, one agent per
   * protocol: endpoints that mix http and https, or name a non-public address literally, are refused as unusable.
   */
  function publicOnly(strategy: ProviderStrategy, provider: OAuthProviderName, settings: OAuthProviderSettings): void {
    const fetched = [settings.tokenURL, settings.userProfileURL, settings.userEmailsURL].filter((url): url is string => Boolean(url));
    // Without overrides the packages' own endpoints, all https.
    const protocols = new Set(fetched.length > 0 ? fetched.map((url) => new URL(url).protocol) : ['https:']);
    let lookup;
    try {
      if (protocols.size !== 1) throw new Error('mixed protocols');
      for (const url of fetched) publicOnlyConnection(new URL(url));
      ({ lookup } = publicOnlyConnection(new URL(fetched[0] ?? 'https://provider.invalid')));
    } catch {
      throw AppError.badRequest(OAUTH_MESSAGES.disabled(provider));
    }
    const agent = protocols.has('https:') ? new https.Agent({ lookup }) : new http.Agent({ lookup });
    (strategy as unknown as { _oauth2: { setAgent(agent: http.Agent): void } })._oauth2.setAgent(agent);
  }

  /**
   * Starts a flow: the provider's authorization URL with a fresh state (bound to this browser by a cookie
   * set on `res`) and the PKCE S256 challenge. Used by sign-in (302) and linking (`{ redirectUrl }`).
   */
  async function authorizationUrl(req: Request, res: Response, name: string, intent: FlowIntent): Promise<string> {
    // Starting never reaches the verify function (that runs on the callback).
    const { strategy } = await strategyFor(name, res, intent, () => () => undefined);
    return new Promise<string>((resolve, reject) => {
      strategy.redirect = (url: string) => resolve(url);
      strategy.error = (err: unknown) => reject(err);
      strategy.fail = () => reject(new Error('OAuth flow could not start'));
      strategy.success = () => reject(new Error('OAuth flow could not start'));
      // Without `code` (or `error`) in query or body, passport-oauth2 starts a flow whatever the request carried.
      strategy.authenticate(Object.create(req, { query: { value: {} }, body: { value: {} } }) as Request);
    });
  }

  /** The identity a provider profile describes (id, email and whether it is verified, name, avatar). */
  function identityOf(name: OAuthProviderName, profile: ProviderProfile): OAuthIdentity {
    const json = profile._json ?? {};
    return {
      provider: name,
      providerAccountId: String(profile.id),
      ...DEFINITIONS[name].email(profile),
      name: text(profile.displayName, NAME_MAX) ?? text(profile.username, NAME_MAX) ?? text(json.login, NAME_MAX),
      avatarUrl: text(profile.photos?.[0]?.value, AVATAR_MAX),
    };
  }

  return { enabled, authorizationOrigins, known, callbackUrl, strategyFor, authorizationUrl, identityOf };
}

export type OAuthProviders = ReturnType<typeof createOAuthProviders>;
