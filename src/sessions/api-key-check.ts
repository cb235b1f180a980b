import type { Request } from 'express';
import type { Logger } from 'pino';
import type { Models } from '../models';
import type { KeyValueStore } from '../store';
import { AppError } from '../http/app-error';
import { keyUsable } from '../http/api-router';
import { can, PERMISSIONS, type Permission } from '../access/permissions';
import { deepFreeze } from '../util/deep-freeze';
import type { ApiKeyHasher } from '../credentials/api-keys';
import type { AuthUser } from './auth-user';
import type { AuthUserRecords } from './auth-user-records';
import type { Revocations } from './revocations';
import type { CredentialCheck } from './token-check';
import { API_KEY_HEADER } from './request-token';
import { BoundedMap } from '../util/bounded-map';

export const API_KEY_MESSAGES = {
  invalid: 'Invalid API key',
  refused: 'Not allowed with an API key',
} as const;

/** As the token verification cache: how long a verified key's facts are trusted under an unchanged user version. */
const VERIFICATION_CACHE_SECONDS = 300;
const RECENT_KEYS = 1000;
const TOUCH_INTERVAL_MS = 60_000;
const RATE_WINDOW_SECONDS = 60;

const keys = {
  cache: (hash: string) => `akc:${hash}`,
  // The token service's key: any change of the user (role, deactivation) voids both caches at once.
  userVersion: (userId: string) => `uver:${userId}`,
  touched: (keyId: string) => `aku:${keyId}`,
  rate: (keyId: string) => `rl:api-key:${keyId}`,
};

interface KeyEntry {
  keyId: string;
  userId: string;
  /** The key's permissions that the owner's role (when the entry was made) still holds. */
  permissions: Permission[];
  /** Epoch ms; null: never expires. */
  expiresAt: number | null;
  user: AuthUser;
  version: string | null;
  generation: string;
}

interface Known {
  cacheKey: string;
  raw: string;
  entry: KeyEntry;
  permissions: ReadonlySet<Permission>;
  /** The key's id as revocation knows it, and the store keys of a repeated check: built once per entry. */
  ids: readonly string[];
  storeKeys: readonly string[];
  rateKey: string;
}

/** The owner and what the key may do now. */
export interface ApiKeyIdentity {
  user: AuthUser;
  keyId: string;
  permissions: ReadonlySet<Permission>;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** Set when an API key signed the request in: its id and what it may do (a subset of the role's). */
      apiKey?: { id: string; permissions: ReadonlySet<Permission> };
    }
  }
}

/**
 * API key verification (CONTRACT 11), shaped like the token check so it costs no more: a key this process
 * verified recently costs one store round trip (cache entry, the owner's version, the key's revocation
 * mark and the revocation set's marker) with the rate counter sent alongside, and no hash and no database
 * read. Any change of the owner replaces their version key (as for tokens), so demotion or deactivation
 * limits the key at once; a revocation writes a mark (revocations.ts) and drops the entry, so it holds on
 * every instance at once, the store's restarts notwithstanding.
 */
export function createApiKeyVerifier(deps: {
  models: Models;
  authUsers: AuthUserRecords;
  store: KeyValueStore;
  revocations: Revocations;
  hasher: ApiKeyHasher;
  /** Requests per minute and key, on every instance together. */
  rateLimit: number;
  logger: Logger;
}) {
  const { models, authUsers, store, revocations, hasher, rateLimit } = deps;
  const log = deps.logger.child({ component: 'api-keys' });
  const recent = new BoundedMap<string, Known>(RECENT_KEYS);
  const touched = new BoundedMap<string, number>(RECENT_KEYS);
  /** Per-process counters while the store fails: limiting degrades to per instance, never to none. */
  const fallbackCounts = new Map<string, { count: number; resetAt: number }>();

  function remember(key: string, known: Known): void {
    deepFreeze(known.entry);
    recent.set(key, known);
  }

  /** An entry with what a repeated check of its key reads: the strings are built here, not per request. */
  function knownOf(cacheKey: string, raw: string, entry: KeyEntry): Known {
    const ids = [entry.keyId];
    const storeKeys = [cacheKey, keys.userVersion(entry.userId), ...revocations.storeKeys(ids)];
    return { cacheKey, raw, entry, permissions: new Set(entry.permissions), ids, storeKeys, rateKey: keys.rate(entry.keyId) };
  }

  /** Counts one request of the key: the count and when its window ends (epoch ms). */
  async function count(rateKey: string): Promise<{ count: number; resetAt: number }> {
    let state: { count: number; resetAt: number };
    try {
      state = await store.increment(rateKey, RATE_WINDOW_SECONDS);
    } catch {
      const now = Date.now();
      const local = fallbackCounts.get(rateKey);
      state = local && local.resetAt > now ? local : { count: 0, resetAt: now + RATE_WINDOW_SECONDS * 1000 };
      state.count += 1;
      fallbackCounts.set(rateKey, state);
    }
    return state;
  }

  /** The key's row checked against the database and the owner's current role; the entry cached when it may be. */
  async function fullCheck(key: string): Promise<Known | null> {
    const hash = hasher.hash(key);
    const row = await models.ApiKey.findOne({ where: { keyHash: hash } });
    if (!row || row.revokedAt || (row.expiresAt && row.expiresAt.getTime() <= Date.now())) return null;
    // The version before the user row: a change landing in between leaves an entry already stale.
    const values = await store.getMany([keys.userVersion(row.userId), ...revocations.storeKeys([row.id])]).catch(() => null);
    const revocation = await revocations.check([row.id], values && values.slice(1));
    if (revocation.revoked) return null;
    const record = await authUsers.byId(row.userId);
    if (!record || !record.active) return null;
    const permissions = row.permissions.filter((p): p is Permission => (PERMISSIONS as readonly string[]).includes(p) && can(record.user.role, p as Permission));
    const entry: KeyEntry = {
      keyId: row.id, userId: row.userId, permissions, expiresAt: row.expiresAt?.getTime() ?? null,
      user: record.user, version: values?.[0] ?? null, generation: revocation.generation ?? '',
    };
    const raw = JSON.stringify(entry);
    const cacheKey = keys.cache(hash);
    // Cached only under a complete revocation set, so a later restart of the store voids the entry.
    if (revocation.generation) {
      const ttl = Math.min(VERIFICATION_CACHE_SECONDS, entry.expiresAt === null ? Infinity : Math.floor((entry.expiresAt - Date.now()) / 1000));
      if (ttl > 0) await store.set(cacheKey, raw, ttl).catch(() => undefined);
    }
    const known = knownOf(cacheKey, raw, entry);
    remember(key, known);
    return known;
  }

  /** The cached facts of a key this process verified before, when the store still vouches for them. */
  async function cachedCheck(key: string, known: Known): Promise<Known | null | undefined> {
    const { keyId } = known.entry;
    let values: Array<string | null> | null = null;
    try {
      values = await store.getMany(known.storeKeys);
    } catch (err) {
      log.warn({ err: (err as Error).message }, 'key-value store unavailable: verifying API key without cache');
    }
    const revocation = await revocations.check(known.ids, values && values.slice(2));
    if (revocation.revoked) return null;
    const [cached, version] = values ?? [null, null];
    if (!cached || !revocation.generation) return undefined;
    const entry = cached === known.raw ? known.entry : (JSON.parse(cached) as KeyEntry);
    const fresh = entry.keyId === keyId && entry.version === version && entry.generation === revocation.generation;
    if (!fresh || (entry.expiresAt !== null && entry.expiresAt <= Date.now())) return undefined;
    if (entry === known.entry) return known;
    const updated = knownOf(known.cacheKey, cached, entry);
    remember(key, updated);
    return updated;
  }

  /**
   * The owner and permissions of a valid key with its rate counter (`rate`: this request's count, the
   * limit, the window's end in epoch ms), or null for an unknown, expired, revoked key or an inactive owner.
   */
  async function verify(key: string): Promise<(ApiKeyIdentity & { rate: { count: number; limit: number; resetAt: number } }) | null> {
    if (!hasher.isWellFormed(key)) return null;
    const known = recent.get(key);
    let found: Known | null | undefined;
    let counted: { count: number; resetAt: number } | null = null;
    if (known) {
      // The counter goes out with the cache read: one round trip's wait for both.
      [found, counted] = await Promise.all([cachedCheck(key, known), count(known.rateKey)]);
      if (found === undefined) found = await fullCheck(key);
    } else {
      found = await fullCheck(key);
    }
    if (!found) return null;
    counted ??= await count(found.rateKey);
    return { user: found.entry.user, keyId: found.entry.keyId, permissions: found.permissions, rate: { ...counted, limit: rateLimit } };
  }

  /** Moves the key's `lastUsedAt` at most once a minute (per key, across instances), off the request path. */
  function touch(keyId: string): void {
    const now = Date.now();
    if (now - (touched.get(keyId) ?? 0) < TOUCH_INTERVAL_MS) return;
    touched.set(keyId, now);
    void (async () => {
      if (!(await store.setIfAbsent(keys.touched(keyId), '1', TOUCH_INTERVAL_MS / 1000))) return;
      await models.ApiKey.update({ lastUsedAt: new Date(now) }, { where: { id: keyId } });
    })().catch((err: unknown) => log.warn({ err: (err as Error).message }, 'could not record the API key as used'));
  }

  /** Voids the cached facts of a key (its row is already revoked): every instance reads the database next time. */
  async function forget(keyHash: string): Promise<void> {
    await store.delete(keys.cache(keyHash)).catch(() => undefined);
  }

  return { verify, touch, forget };
}

export type ApiKeyVerifier = ReturnType<typeof createApiKeyVerifier>;

/** The key a request presents: `X-API-Key`, or a Bearer value that starts like a key. Null when none. */
export function presentedApiKey(req: Request): string | null {
  const header = req.headers[API_KEY_HEADER];
  if (header !== undefined) return Array.isArray(header) ? (header[0] ?? '') : header;
  const authorization = req.headers.authorization;
  if (typeof authorization !== 'string') return null;
  const match = /^Bearer\s+(ak_\S*)\s*$/i.exec(authorization);
  return match ? match[1] : null;
}

/**
 * The API key credential, the guards' first: a request that presents a key is judged by it alone (never by
 * a cookie beside it, which is why CSRF exempts it). A bad key is 401 "Invalid API key", not a fall-through
 * to the next credential; over its rate limit, 429. Keys fail closed: on a route whose endpoint description
 * does not say `apiKey: true` (src/http/api-router.ts), every page included, a key is 403, so a route added
 * later is closed to keys until it is opened on purpose.
 */
export function createApiKeyCheck(verifier: Pick<ApiKeyVerifier, 'verify' | 'touch'>): CredentialCheck {
  return async (req) => {
    const key = presentedApiKey(req);
    if (key === null) return false;
    const found = await verifier.verify(key);
    if (!found) throw new AppError(401, API_KEY_MESSAGES.invalid);
    if (!keyUsable(req)) throw new AppError(403, API_KEY_MESSAGES.refused);
    // The per-key budget, told as the per-address limits tell theirs (CONTRACT 5's X-RateLimit-* headers).
    const { count, limit, resetAt } = found.rate;
    req.res?.setHeader('X-RateLimit-Limit', limit);
    req.res?.setHeader('X-RateLimit-Remaining', Math.max(0, limit - count));
    req.res?.setHeader('X-RateLimit-Reset', Math.ceil(resetAt / 1000));
    if (count > limit) throw AppError.tooManyRequests(Math.max(1, Math.ceil((resetAt - Date.now()) / 1000)));
    verifier.touch(found.keyId);
    req.user = found.user;
    req.apiKey = { id: found.keyId, permissions: found.permissions };
    return true;
  };
}
