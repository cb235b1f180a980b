import crypto from 'node:crypto';
import type { Request, Response } from 'express';
import type { KeyValueStore } from '../store';

/** How long a started flow may take (the record and the cookie expire together). */
export const OAUTH_STATE_TTL_SECONDS = 600;

const KEY_PREFIX = 'oauth:state:';
const RANDOM_BYTES = 32;

/** How the browser-binding cookies are set. */
export interface BindingCookieOptions {
  secure: boolean;
  /** BASE_URL is https: the cookie is `__Host-` (Secure, Path=/, no Domain), which no sibling subdomain can set. */
  hostOnly: boolean;
}

/**
 * The name of the cookie that binds ONE flow to the browser that started it (SameSite=Lax: it must come back
 * from the provider). Per flow, derived from its state: a fresh random value every flow, never reused, so a
 * value planted in a victim's browser (a sibling subdomain can set cookies for the parent domain) matches no
 * flow but the attacker's own, and under HTTPS the `__Host-` prefix stops the planting itself.
 */
export function bindingCookieName(state: string, hostOnly: boolean, kind: 'oauth' | 'sso' = 'oauth'): string {
  const flow = crypto.createHash('sha256').update(state).digest('base64url').slice(0, 16);
  return `${hostOnly ? '__Host-' : ''}${kind}_binding_${flow}`;
}

/** Why a callback's state was refused (activity details; the user sees one message). */
export type StateFailureReason = 'state_missing' | 'state_invalid' | 'state_other_browser';

/** What a started flow remembers until its callback, in the shared store (never in a server session). */
export interface OAuthStateRecord {
  provider: string;
  /** The PKCE code_verifier; only its S256 challenge went to the provider. */
  verifier: string;
  /** SHA-256 of the browser-binding cookie's value. */
  binding: string;
  /** A same-origin path to land on after signing in. */
  redirect: string | null;
  /** Set when a signed-in user links the provider to their account. */
  linkUserId: string | null;
  /**
   * That user's token epoch when linking started: whatever ends their tokens meanwhile (logout-all, a
   * password reset, a role change) ends the flow too, so a stolen token cannot finish a link after it.
   */
  linkEpoch: number | null;
}

/** Who started the flow and what it carries to the callback. */
export interface FlowIntent {
  redirect?: string | null;
  linkUserId?: string | null;
  linkEpoch?: number | null;
}

type StoreCallback = (err: Error | null, state?: string) => void;
type VerifyCallback = (err: Error | null, ok: string | false, info?: OAuthStateRecord | { message: string; reason: StateFailureReason }) => void;

function parseRecord(raw: string): OAuthStateRecord | null {
  try {
    return JSON.parse(raw) as OAuthStateRecord;
  } catch {
    return null;
  }
}

function sha256(value: string): Buffer {
  return crypto.createHash('sha256').update(value).digest();
}

/**
 * passport-oauth2's `store` option, one instance per request: `store` keeps a ≥128-bit state with the PKCE
 * verifier in the shared store and binds it to this browser by a per-flow cookie (`bindingCookieName`); `verify` consumes the record
 * atomically (a replay finds nothing) and checks the cookie. `record` is what the callback consumed.
 * The arities matter: passport-oauth2 passes the PKCE verifier only to a five-argument `store`.
 */
export class OAuthStateStore {
  record: OAuthStateRecord | null = null;

  constructor(
    private readonly kv: KeyValueStore,
    private readonly res: Response,
    private readonly provider: string,
    private readonly intent: FlowIntent,
    private readonly cookie: BindingCookieOptions,
  ) {}

  private cookieAttributes() {
    const { secure, hostOnly } = this.cookie;
    // `__Host-` requires Secure and Path=/; otherwise only the OAuth routes need to see it.
    return { httpOnly: true, sameSite: 'lax' as const, secure: secure || hostOnly, path: hostOnly ? '/' : '/auth/oauth' };
  }

  store(_req: Request, verifier: string, _state: unknown, _meta: unknown, callback: StoreCallback): void {
    // A binding of its own per flow, under a name of its own: two tabs never void each other's flows.
    const binding = crypto.randomBytes(RANDOM_BYTES).toString('base64url');
    const state = crypto.randomBytes(RANDOM_BYTES).toString('base64url');
    const record: OAuthStateRecord = {
      provider: this.provider,
      verifier,
      binding: sha256(binding).toString('base64url'),
      redirect: this.intent.redirect ?? null,
      linkUserId: this.intent.linkUserId ?? null,
      linkEpoch: this.intent.linkEpoch ?? null,
    };
    this.kv.set(KEY_PREFIX + state, JSON.stringify(record), OAUTH_STATE_TTL_SECONDS).then(() => {
      this.res.cookie(bindingCookieName(state, this.cookie.hostOnly), binding, { ...this.cookieAttributes(), maxAge: OAUTH_STATE_TTL_SECONDS * 1000 });
      callback(null, state);
    }, (err: unknown) => callback(err as Error));
  }

  verify(req: Request, state: unknown, _meta: unknown, callback: VerifyCallback): void {
    const refuse = (reason: StateFailureReason) => callback(null, false, { message: reason, reason });
    if (typeof state !== 'string' || state === '' || state.length > 128) return refuse('state_missing');
    // Taken (read and deleted in one step) before anything else: of two uses of one state, one finds nothing.
    this.kv.take(KEY_PREFIX + state).then((raw) => {
      const record = raw === null ? null : parseRecord(raw);
      if (!record || record.provider !== this.provider) return refuse('state_invalid');
      const name = bindingCookieName(state, this.cookie.hostOnly);
      const cookie = (req.cookies as Record<string, unknown> | undefined)?.[name];
      // Spent with its flow: the browser keeps nothing that could be matched against another one.
      this.res.clearCookie(name, this.cookieAttributes());
      const expected = Buffer.from(record.binding, 'base64url');
      if (typeof cookie !== 'string' || !crypto.timingSafeEqual(sha256(cookie), expected)) return refuse('state_other_browser');
      this.record = record;
      callback(null, record.verifier, record);
    }, (err: unknown) => callback(err as Error, false));
  }
}
