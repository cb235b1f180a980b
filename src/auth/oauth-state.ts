import crypto from 'node:crypto';
import type { Request, Response } from 'express';
import type { KeyValueStore } from '../store';

/** The cookie that binds a flow's state to the browser that started it (SameSite=Lax: it must come back from the provider). */
export const OAUTH_BINDING_COOKIE = 'oauth_binding';
/** How long a started flow may take (the record and the cookie expire together). */
export const OAUTH_STATE_TTL_SECONDS = 600;

const KEY_PREFIX = 'oauth:state:';
const RANDOM_BYTES = 32;
const BINDING_PATTERN = /^[A-Za-z0-9_-]{43}$/;

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
 * verifier in the shared store and binds it to this browser by a cookie; `verify` consumes the record
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
    private readonly secure: boolean,
  ) {}

  store(req: Request, verifier: string, _state: unknown, _meta: unknown, callback: StoreCallback): void {
    // One binding per browser, reused by every flow it starts, so two tabs never void each other's flows.
    const existing = (req.cookies as Record<string, unknown> | undefined)?.[OAUTH_BINDING_COOKIE];
    const binding = typeof existing === 'string' && BINDING_PATTERN.test(existing) ? existing : crypto.randomBytes(RANDOM_BYTES).toString('base64url');
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
      this.res.cookie(OAUTH_BINDING_COOKIE, binding, {
        httpOnly: true,
        sameSite: 'lax',
        secure: this.secure,
        path: '/auth/oauth',
        maxAge: OAUTH_STATE_TTL_SECONDS * 1000,
      });
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
      const cookie = (req.cookies as Record<string, unknown> | undefined)?.[OAUTH_BINDING_COOKIE];
      const expected = Buffer.from(record.binding, 'base64url');
      if (typeof cookie !== 'string' || !crypto.timingSafeEqual(sha256(cookie), expected)) return refuse('state_other_browser');
      this.record = record;
      callback(null, record.verifier, record);
    }, (err: unknown) => callback(err as Error, false));
  }
}
