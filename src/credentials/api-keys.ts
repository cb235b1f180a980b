import crypto from 'node:crypto';

/** What every key starts with, so secret scanners (and people) can tell a leaked one. */
export const API_KEY_PREFIX = 'ak_';
const KEY_BYTES = 32;
/** `ak_` and 32 random bytes in base64url (43 characters, no padding): nothing else is looked up. */
const KEY_PATTERN = /^ak_[A-Za-z0-9_-]{43}$/;
/** How much of a key lists show: the prefix and six characters, enough to tell keys apart, far too few to guess. */
const SHOWN_LENGTH = API_KEY_PREFIX.length + 6;

/**
 * API key primitives (CONTRACT 11). A key is 256 random bits, so it is stored as a fast keyed hash
 * (HMAC-SHA256 under a key derived from JWT_SECRET), not a slow password hash: a slow hash buys time
 * against guessing low-entropy secrets, and there is nothing to guess in 2^256. Fast also means the
 * hash costs about a microsecond on a request that missed the verification cache, where PBKDF2 would cost
 * tens of milliseconds per request. The key under the HMAC means a copy of the table alone cannot even
 * test a candidate key. Changing JWT_SECRET voids every key (as it voids every token).
 */
export function createApiKeyHasher(secret: string) {
  const hashKey = crypto.createSecretKey(Buffer.from(crypto.hkdfSync('sha256', Buffer.from(secret, 'utf8'), 'auth-service', 'api-keys.v1', 32)));

  /** The stored form of a key (hex). */
  function hash(key: string): string {
    return crypto.createHmac('sha256', hashKey).update(key).digest('hex');
  }

  /** Whether the text has the shape of a key we issue (checked before any lookup). */
  function isWellFormed(key: string): boolean {
    return KEY_PATTERN.test(key);
  }

  /** A new key: the key itself (shown once), the part lists show, and the hash kept. */
  function generate(): { key: string; prefix: string; hash: string } {
    const key = `${API_KEY_PREFIX}${crypto.randomBytes(KEY_BYTES).toString('base64url')}`;
    return { key, prefix: key.slice(0, SHOWN_LENGTH), hash: hash(key) };
  }

  return { hash, isWellFormed, generate };
}

export type ApiKeyHasher = ReturnType<typeof createApiKeyHasher>;
