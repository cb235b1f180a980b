import crypto from 'node:crypto';
import { deepFreeze } from '../util/deep-freeze';
import { Op, type Transaction } from 'sequelize';
import type { Logger } from 'pino';
import type { Config } from '../config/config';
import type { Models, Role, User } from '../models';
import type { KeyValueStore } from '../store';
import type { AccessClaims, AuthUser } from './auth-user';
import type { AuthUserRecords } from './auth-user-records';
import type { Revocations } from './revocations';
import type { SigningKeys } from './signing-keys';
import { BoundedMap } from '../util/bounded-map';

const VERIFICATION_CACHE_SECONDS = 300;

interface CacheEntry {
  user: AuthUser;
  version: string | null;
  /** The revocation set's generation when the entry was made (see revocations.ts). */
  generation: string;
  /** Fingerprint of the secret, algorithm, issuer and audience that verified the token: an entry outlives none of them. */
  signer: string;
}

/** How many recently verified tokens keep their parsed claims and cache entry in process (see verify). */
const RECENT_TOKENS = 1000;

const keys = {
  cache: (token: string) => `vc:${crypto.hash('sha256', token, 'hex')}`,
  userVersion: (userId: string) => `uver:${userId}`,
};

export interface IssuedToken {
  token: string;
  expiresIn: number;
  claims: AccessClaims;
}

/** What tokens need of the security settings (the settings service answers it; this layer sits below services). */
export interface TokenSettings {
  getSecuritySettings(): Promise<{ jwtExpiresIn: { seconds: number }; jwtRefreshGraceSeconds: { seconds: number } }>;
}

/** The sign-in a token belongs to: a new one at sign-in, the presented token's at refresh. */
export interface SignInSession {
  sid: string;
  /** Epoch seconds of the sign-in (or of the last proof of the password, for step-up). */
  authTime: number;
  /** The session's absolute end (epoch seconds): no token of it outlives that. */
  expiresAt?: number;
}

/** A token's store lookup, derived from its text alone (see lookupOf in createTokenService). */
interface TokenLookup {
  named: AccessClaims;
  cacheKey: string;
  ids: readonly string[];
  storeKeys: readonly string[];
}

/** Store and database ids whose revocation ends the token: its own jti and its sign-in's sid. */
function revocationIds(claims: AccessClaims): string[] {
  return [claims.jti, claims.sid];
}

/** `revoked`: the signature and window were fine but the token or its session was revoked (a superseded token: reuse?). */
export type RefreshCheck =
  | { ok: true; user: AuthUser; claims: AccessClaims }
  | { ok: false; reason: 'invalid' | 'inactive' }
  | { ok: false; reason: 'revoked'; claims: AccessClaims };

/**
 * The payload of a token read without checking its signature: only to name the store keys of one read.
 * Its claims are trusted only when the cache holds an entry under the hash of this exact token (which
 * proves the signature was checked when the entry was written); otherwise the token is fully verified.
 */
function unverifiedClaims(token: string): AccessClaims | null {
  const first = token.indexOf('.');
  const second = token.indexOf('.', first + 1);
  if (first <= 0 || second <= first) return null;
  try {
    return asAccessClaims(JSON.parse(Buffer.from(token.slice(first + 1, second), 'base64url').toString('utf8')));
  } catch {
    return null;
  }
}

/** The payload as access claims, or null when a claim is missing or of the wrong kind. */
function asAccessClaims(payload: unknown): AccessClaims | null {
  const claims = payload as Partial<AccessClaims> | null;
  const wellFormed =
    typeof claims === 'object' &&
    claims !== null &&
    claims.typ === 'access' &&
    typeof claims.sub === 'string' &&
    claims.sub === claims.userId &&
    typeof claims.jti === 'string' &&
    typeof claims.ep === 'number' &&
    typeof claims.exp === 'number' &&
    (claims.grace === undefined || (Number.isInteger(claims.grace) && claims.grace >= 0)) &&
    typeof claims.sid === 'string' &&
    Number.isInteger(claims.auth_time);
  return wellFormed ? (claims as AccessClaims) : null;
}

/**
 * Issues and verifies access tokens (the algorithm pinned: see signing-keys.ts). Verification results are cached for five minutes
 * in the key-value store under a hash of the whole token. Each user has a version key in the store that
 * any change (revocation, role, profile) replaces; a cached result under an old version is not trusted,
 * so revocation takes effect at once. The version key lives as long as the cache entries it guards.
 */
export function createTokenService(deps: {
  config: Config;
  models: Models;
  authUsers: AuthUserRecords;
  store: KeyValueStore;
  settings: TokenSettings;
  /** Revoked token and session ids: durable in the database, mirrored in the store for the hot path. */
  revocations: Revocations;
  /** Signs and checks signatures, `iss` and `aud` (HS256 with JWT_SECRET, or database keys: CONTRACT 11). */
  signingKeys: SigningKeys;
  logger: Logger;
}) {
  const { models, authUsers, store, settings, revocations, signingKeys, logger } = deps;
  const signer = signingKeys.fingerprint;

  /**
   * Tokens that passed through the cache recently, with what their strings determine: the unverified
   * claims, the cache key, and the cache entry parsed from the exact text last read (a client sends the
   * same token with every request). No verdict is kept: every request still reads the entry, the user's
   * version and the revocation keys and checks them. Only tokens that passed are kept, so unknown strings
   * cannot fill it; claims and entry are frozen, being shared between requests (measured A/B: 7 µs less CPU
   * per `/auth/me`, about 5 %).
   */
  const recentTokens = new BoundedMap<string, { lookup: TokenLookup; raw: string; entry: CacheEntry }>(RECENT_TOKENS);
  function rememberToken(token: string, facts: { lookup: TokenLookup; raw: string; entry: CacheEntry }): void {
    deepFreeze(facts.entry);
    deepFreeze(facts.lookup);
    recentTokens.set(token, facts);
  }

  /**
   * What a token's check reads, from its unverified claims: the cache key, the ids revocation knows it by,
   * and every store key of its one round trip (cache entry, the user's version, the revocation keys).
   * Kept with a remembered token, so a repeated request builds none of these strings again (and the
   * in-process store hashes none of them again).
   */
  function lookupOf(token: string): TokenLookup | null {
    const named = unverifiedClaims(token);
    if (!named) return null;
    const cacheKey = keys.cache(token);
    const ids = revocationIds(named);
    return { named, cacheKey, ids, storeKeys: [cacheKey, keys.userVersion(named.sub), ...revocations.storeKeys(ids)] };
  }

  async function decode(token: string, ignoreExpiration: boolean): Promise<AccessClaims | null> {
    return asAccessClaims(await signingKeys.verify(token, { ignoreExpiration }));
  }

  /**
   * The user a token of ours names, its signature checked and its expiry not (CSRF binds its token to the
   * auth cookie's user, and an expired cookie still acts on logout), and whether it was issued before the
   * per-purpose sub-keys (its CSRF cookie was then made under the raw secret). Null for anything we did not sign.
   */
  async function signedSubject(token: string): Promise<{ userId: string; beforeSubKeys: boolean } | null> {
    const claims = await decode(token, true);
    return claims ? { userId: claims.sub, beforeSubKeys: claims.iat < (await signingKeys.derivedKeysSince()) } : null;
  }

  /**
   * Signs a token for the user with the resolved lifetime. Without `session` this is a new sign-in (a new
   * `sid`, `auth_time` now); a refresh passes the presented token's, so the chain stays one sign-in.
   */
  async function issue(user: Pick<User, 'id' | 'email' | 'role' | 'tokenEpoch'>, session?: SignInSession): Promise<IssuedToken> {
    const { jwtExpiresIn, jwtRefreshGraceSeconds } = await settings.getSecuritySettings();
    const now = Math.floor(Date.now() / 1000);
    const { sid, authTime, expiresAt } = session ?? { sid: crypto.randomUUID(), authTime: now, expiresAt: undefined };
    const claims: AccessClaims = {
      sub: user.id,
      userId: user.id,
      email: user.email,
      role: user.role,
      jti: crypto.randomUUID(),
      ep: user.tokenEpoch,
      typ: 'access',
      iat: now,
      // Never past the session's absolute end (CONTRACT 8), so no check of it is needed per request.
      exp: Math.min(now + jwtExpiresIn.seconds, expiresAt ?? Infinity),
      grace: jwtRefreshGraceSeconds.seconds,
      sid,
      auth_time: authTime,
      ...signingKeys.issuerClaims(),
    };
    const token = await signingKeys.sign({ ...claims });
    return { token, expiresIn: jwtExpiresIn.seconds, claims };
  }

  /**
   * Full verification of an unexpired token: signature, claims, not revoked, user existing and active,
   * epoch current. One store round trip reads the cache entry, the user's version and the revocation
   * keys. An entry under the hash of the whole token proves this exact token's signature was checked (by
   * this key and configuration), so a hit leaves only expiry, revocation and the user's version to check: no
   * signature work. A token without an entry is verified before anything else is asked about it. A store
   * failure means the full check against the database.
   */
  async function verify(token: string): Promise<{ user: AuthUser; claims: AccessClaims } | null> {
    const known = recentTokens.get(token);
    const lookup = known ? known.lookup : lookupOf(token);
    if (!lookup) return null;
    const { named, cacheKey } = lookup;
    let values: Array<string | null> | null = null;
    try {
      values = await store.getMany(lookup.storeKeys);
    } catch (err) {
      logger.warn({ err: (err as Error).message }, 'key-value store unavailable: verifying token without cache');
    }
    const [cached, version] = values ?? [null, null];
    const entry = !cached ? null : known && known.raw === cached ? known.entry : (JSON.parse(cached) as CacheEntry);
    const seen = entry !== null && entry.signer === signer && entry.user.id === named.sub && named.exp > Math.floor(Date.now() / 1000);
    // The cached path does no signature work: `await` only on a miss.
    let claims = seen ? named : await decode(token, false);
    if (!claims) return null;
    const revocation = await revocations.check(claims === named ? lookup.ids : revocationIds(claims), values && values.slice(2));
    if (revocation.revoked) return null;
    if (seen && entry && cached && revocation.generation && entry.version === version && entry.generation === revocation.generation) {
      if (!known || known.entry !== entry) rememberToken(token, { lookup, raw: cached, entry });
      return { user: entry.user, claims };
    }

    // The entry is stale (the user changed, or the revocation set was reloaded): the signature decides again.
    if (seen) claims = await decode(token, false);
    if (!claims) return null;
    const record = await authUsers.byId(claims.sub);
    if (!record || !record.active || record.user.tokenEpoch !== claims.ep) return null;
    // Cached only under a complete revocation set, so a later restart of the store voids the entry.
    if (revocation.generation) {
      const ttl = Math.min(VERIFICATION_CACHE_SECONDS, claims.exp - Math.floor(Date.now() / 1000));
      if (ttl > 0) {
        const fresh: CacheEntry = { user: record.user, version, generation: revocation.generation, signer };
        await store.set(cacheKey, JSON.stringify(fresh), ttl).catch(() => undefined);
      }
    }
    return { user: record.user, claims };
  }

  /** Refresh rule of SPEC 4.1: signature always checked; expiry forgiven within the grace window; user re-read. */
  async function checkForRefresh(token: string): Promise<RefreshCheck> {
    const claims = await decode(token, true);
    if (!claims) return { ok: false, reason: 'invalid' };
    const { jwtRefreshGraceSeconds } = await settings.getSecuritySettings();
    const now = Math.floor(Date.now() / 1000);
    // A lowered grace applies at once; a raised one only to tokens issued after it (see AccessClaims.grace).
    const grace = Math.min(jwtRefreshGraceSeconds.seconds, claims.grace ?? Infinity);
    if (now >= claims.exp + grace) return { ok: false, reason: 'invalid' };
    if (await revocations.isRevoked(revocationIds(claims))) return { ok: false, reason: 'revoked', claims };
    const record = await authUsers.byId(claims.sub);
    if (!record || record.user.tokenEpoch !== claims.ep) return { ok: false, reason: 'invalid' };
    if (!record.active) return { ok: false, reason: 'inactive' };
    return { ok: true, user: record.user, claims };
  }

  /**
   * Ends one token at once (its session, the rest of its refresh chain, is ended by the session service): it is
   * denied until it could no longer be refreshed, even after a store restart or a raised grace (its own `grace`
   * claim bounds its refresh window; older tokens without it keep the current grace's reach).
   */
  async function revokeToken(token: string, claims: AccessClaims): Promise<void> {
    const { jwtRefreshGraceSeconds } = await settings.getSecuritySettings();
    await revocations.revoke(claims.jti, claims.exp + (claims.grace ?? jwtRefreshGraceSeconds.seconds));
    // A cache entry left behind by a failing store is voided by the reload that follows (new generation).
    await store.delete(keys.cache(token)).catch(() => undefined);
  }

  /**
   * Ends every token of the user: the epoch in the database moves on (tokens carry the old one), and
   * the version key voids cached results. Unused password-reset links go too: whatever ends the user's
   * sessions (logout-all, a password change or reset, a role change, deactivation) must not leave a
   * mailed way back in. Call with the transaction that changes the user, if any. `keepSessionId`: the session
   * that made the change lives on (a password change); its holder gets a new token under the new epoch.
   */
  async function revokeAllForUser(userId: string, options: { transaction?: Transaction; keepSessionId?: string } = {}): Promise<void> {
    const { transaction, keepSessionId } = options;
    await models.User.increment('tokenEpoch', { by: 1, where: { id: userId }, transaction });
    // Their tokens fail by the epoch already; the rows are marked so no list shows them as live.
    const others = keepSessionId ? { id: { [Op.ne]: keepSessionId } } : {};
    await models.Session.update({ revokedAt: new Date() }, { where: { userId, revokedAt: null, ...others }, transaction });
    await models.PasswordResetToken.destroy({ where: { userId, usedAt: null }, transaction });
    // Voiding the cache before the epoch is committed would let a concurrent request re-cache the old state.
    if (transaction) transaction.afterCommit(() => userChanged(userId));
    else await userChanged(userId);
  }

  /** Voids cached verification results of the user (their data changed), without ending their tokens. */
  async function userChanged(userId: string): Promise<void> {
    try {
      await store.set(keys.userVersion(userId), crypto.randomUUID(), VERIFICATION_CACHE_SECONDS + 5);
    } catch (err) {
      // Cached results of this user must not outlive the change: the next revocation load voids them all.
      revocations.markIncomplete();
      logger.warn({ err: (err as Error).message }, 'key-value store unavailable: cached verifications voided at the next reload');
    }
  }

  return { signedSubject, issue, verify, checkForRefresh, revokeToken, revokeAllForUser, userChanged };
}

export type TokenService = ReturnType<typeof createTokenService>;
export type { Role };
