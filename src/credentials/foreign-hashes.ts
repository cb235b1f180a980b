import crypto from 'node:crypto';
import { promisify } from 'node:util';
import argon2 from 'argon2';
import type { HashThreads } from './hash-threads';
import type { BcryptThreads } from './bcrypt-threads';

/**
 * Password hashes written by other systems (CONTRACT 17), parsed exactly and with every cost parameter bounded:
 * an import refuses a record whose hash is malformed or would cost more than these to check, so no imported row
 * can make one sign-in stall the service. The bounds sit above what each system's current defaults write.
 */
export const FOREIGN_HASH_BOUNDS = {
  /** bcrypt's log2 rounds: PHP and Laravel write 10–12, Keycloak's bcrypt providers 10–12. */
  bcryptCost: 14,
  /** Argon2 memory in KiB (256 MiB); OWASP's and Keycloak's settings are 19–64 MiB. */
  argon2MemoryKiB: 262_144,
  argon2Iterations: 16,
  argon2Parallelism: 16,
  /** scrypt's memory is 128·N·r bytes: N·r ≤ 2^21 bounds it at 256 MiB (passlib writes ln=16, r=8: 64 MiB). */
  scryptNr: 2 ** 21,
  scryptParallelism: 16,
  /** Django 5.2 writes 1,000,000 rounds of PBKDF2-SHA256; passlib 29,000 (sha256) and 25,000 (sha512). */
  pbkdf2Iterations: 2_000_000,
} as const;

export const FOREIGN_HASH_MESSAGES = {
  unknown: 'passwordHash is not a supported format (bcrypt, Argon2, scrypt, PBKDF2 or this service’s own)',
  malformed: 'passwordHash is malformed',
  overCost: 'passwordHash has a cost parameter above what this service checks',
} as const;

/** A foreign hash, parsed: what verifying it needs. */
export type ForeignHash =
  | { kind: 'bcrypt'; hash: string }
  | { kind: 'argon2'; hash: string; memoryKiB: number }
  | { kind: 'scrypt'; salt: Buffer; key: Buffer; N: number; r: number; p: number }
  | { kind: 'pbkdf2'; digest: 'sha256' | 'sha512'; salt: Buffer; key: Buffer; iterations: number };

export type ForeignHashParse = { ok: true; hash: ForeignHash } | { ok: false; error: string };

const malformed: ForeignHashParse = { ok: false, error: FOREIGN_HASH_MESSAGES.malformed };
const overCost: ForeignHashParse = { ok: false, error: FOREIGN_HASH_MESSAGES.overCost };

/**
 * bcrypt as the OpenBSD paper's implementations write it: `$2a$`, `$2b$` (OpenBSD 5.5's fix) or `$2y$` (PHP's
 * crypt_blowfish fix; the same algorithm as 2b), a two-digit cost, then 22 characters of salt and 31 of hash in
 * bcrypt's own base64 alphabet (`./A-Za-z0-9`). https://www.openwall.com/crypt/ and bcryptjs's README.
 */
const BCRYPT = /^\$2[aby]\$(\d{2})\$[./A-Za-z0-9]{53}$/;
/**
 * Argon2 in the PHC string format (https://github.com/P-H-C/phc-string-format/blob/master/phc-sf-spec.md and the
 * reference implementation's encoding.c): `$argon2id$v=19$m=<KiB>,t=<passes>,p=<lanes>$<salt>$<hash>`, salt and hash
 * in standard base64 without padding. Only version 19 (1.3), which every current library writes.
 */
const ARGON2 = /^\$argon2(id|i)\$v=19\$m=(\d{1,10}),t=(\d{1,10}),p=(\d{1,3})\$([A-Za-z0-9+/]{11,})\$([A-Za-z0-9+/]{16,})$/;
/**
 * scrypt in passlib's PHC form (https://passlib.readthedocs.io/en/stable/lib/passlib.hash.scrypt.html):
 * `$scrypt$ln=<log2 N>,r=<block size>,p=<parallelism>$<salt>$<key>`, base64 without padding (passlib's "ab64"
 * alphabet, `.` for `+`, is read as well).
 */
const SCRYPT = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,3}),p=(\d{1,3})\$([A-Za-z0-9+/.]{11,})\$([A-Za-z0-9+/.]{22,})$/;
/**
 * passlib's PBKDF2 (https://passlib.readthedocs.io/en/stable/lib/passlib.hash.pbkdf2_digest.html):
 * `$pbkdf2-sha256$<rounds>$<salt>$<checksum>` and `$pbkdf2-sha512$…`, salt and checksum in passlib's adapted base64
 * ("ab64": standard base64 with `.` for `+`, no padding); the checksum is the digest's length (32 or 64 bytes). A
 * SHA-256 checksum of 64 bytes is read too: Keycloak before version 20 derived 512-bit keys with pbkdf2-sha256
 * (Pbkdf2Sha256PasswordHashProvider), and its hashes are brought over in this form (docs/migration.md).
 */
const PASSLIB_PBKDF2 = /^\$pbkdf2-(sha256|sha512)\$(\d{1,10})\$([A-Za-z0-9./]{0,})\$([A-Za-z0-9./]{43}|[A-Za-z0-9./]{86})$/;
/**
 * Django's PBKDF2PasswordHasher (django/contrib/auth/hashers.py): `pbkdf2_sha256$<iterations>$<salt>$<hash>`, the
 * salt used as its literal UTF-8 text (Django's salts are alphanumeric), the hash 32 bytes in standard base64 with padding.
 */
const DJANGO_PBKDF2 = /^pbkdf2_sha256\$(\d{1,10})\$([A-Za-z0-9]{1,64})\$([A-Za-z0-9+/]{43}=)$/;

const PBKDF2_KEY_BYTES = { sha256: 32, sha512: 64 } as const;

/** passlib's ab64 and plain unpadded base64 alike: `.` stands for `+`, and Node reads base64 without padding. */
const fromBase64 = (text: string): Buffer => Buffer.from(text.replace(/\./g, '+'), 'base64');

/** Whether a stored hash is one of the foreign formats at all (the cheap test `verify` routes by). */
export const looksForeign = (stored: string): boolean =>
  stored.startsWith('$2') || stored.startsWith('$argon2') || stored.startsWith('$scrypt$') || stored.startsWith('$pbkdf2-') || stored.startsWith('pbkdf2_sha256$');

/** Parses a foreign hash exactly, refusing a malformed one or one whose cost exceeds FOREIGN_HASH_BOUNDS. */
export function parseForeignHash(stored: string): ForeignHashParse {
  const bounds = FOREIGN_HASH_BOUNDS;
  let m: RegExpExecArray | null;
  if ((m = BCRYPT.exec(stored))) {
    const cost = Number(m[1]);
    if (cost < 4 || cost > 31) return malformed;
    return cost > bounds.bcryptCost ? overCost : { ok: true, hash: { kind: 'bcrypt', hash: stored } };
  }
  if ((m = ARGON2.exec(stored))) {
    const [memoryKiB, iterations, lanes] = [Number(m[2]), Number(m[3]), Number(m[4])];
    // Argon2's own minimums (RFC 9106 3.1): at least one pass, one lane and 8 KiB per lane.
    if (iterations < 1 || lanes < 1 || memoryKiB < 8 * lanes) return malformed;
    if (memoryKiB > bounds.argon2MemoryKiB || iterations > bounds.argon2Iterations || lanes > bounds.argon2Parallelism) return overCost;
    return { ok: true, hash: { kind: 'argon2', hash: stored, memoryKiB } };
  }
  if ((m = SCRYPT.exec(stored))) {
    const [ln, r, p] = [Number(m[1]), Number(m[2]), Number(m[3])];
    if (ln < 1 || r < 1 || p < 1) return malformed;
    if (ln > 30 || 2 ** ln * r > bounds.scryptNr || p > bounds.scryptParallelism) return overCost;
    const key = fromBase64(m[5]);
    if (key.length < 16) return malformed;
    return { ok: true, hash: { kind: 'scrypt', salt: fromBase64(m[4]), key, N: 2 ** ln, r, p } };
  }
  if ((m = PASSLIB_PBKDF2.exec(stored))) {
    const digest = m[1] as 'sha256' | 'sha512';
    const iterations = Number(m[2]);
    const key = fromBase64(m[4]);
    if (iterations < 1 || (key.length !== PBKDF2_KEY_BYTES[digest] && !(digest === 'sha256' && key.length === 64))) return malformed;
    // PBKDF2 runs its iterations once per block of the digest's length: a 64-byte SHA-256 key costs twice its count.
    if (iterations * (key.length / PBKDF2_KEY_BYTES[digest]) > bounds.pbkdf2Iterations) return overCost;
    return { ok: true, hash: { kind: 'pbkdf2', digest, salt: fromBase64(m[3]), key, iterations } };
  }
  if ((m = DJANGO_PBKDF2.exec(stored))) {
    const iterations = Number(m[1]);
    if (iterations < 1) return malformed;
    if (iterations > bounds.pbkdf2Iterations) return overCost;
    return { ok: true, hash: { kind: 'pbkdf2', digest: 'sha256', salt: Buffer.from(m[2], 'utf8'), key: Buffer.from(m[3], 'base64'), iterations } };
  }
  return looksForeign(stored) ? malformed : { ok: false, error: FOREIGN_HASH_MESSAGES.unknown };
}

const scrypt = promisify(crypto.scrypt) as (password: string, salt: Buffer, keylen: number, options: crypto.ScryptOptions) => Promise<Buffer>;

/**
 * Checks passwords against foreign hashes without holding the event loop: PBKDF2 on the service's hashing threads,
 * bcrypt on its own threads (bcryptjs is JavaScript), Argon2 (native) and scrypt (node:crypto) on libuv's pool.
 * The password is used as given, not in the NFKC form the service hashes: the other system hashed what its user typed.
 */
export function createForeignHashes(deps: { hashThreads: HashThreads; bcryptThreads: BcryptThreads }) {
  const { hashThreads, bcryptThreads } = deps;

  /** Whether `password` matches; null when `stored` is no foreign hash this service accepts (treated as corrupt). */
  async function verify(password: string, stored: string): Promise<boolean | null> {
    const parsed = parseForeignHash(stored);
    if (!parsed.ok) return null;
    const hash = parsed.hash;
    switch (hash.kind) {
      case 'bcrypt':
        return bcryptThreads.compare(password, hash.hash);
      case 'argon2':
        return argon2.verify(hash.hash, password);
      case 'scrypt': {
        const key = await scrypt(password, hash.salt, hash.key.length, { N: hash.N, r: hash.r, p: hash.p, maxmem: 128 * hash.N * hash.r + 1024 * 1024 });
        return crypto.timingSafeEqual(key, hash.key);
      }
      case 'pbkdf2': {
        const key = await hashThreads.derive({ password, salt: hash.salt, rounds: hash.iterations, keyBytes: hash.key.length, digest: hash.digest });
        return crypto.timingSafeEqual(key, hash.key);
      }
    }
  }

  return { verify };
}

export type ForeignHashes = ReturnType<typeof createForeignHashes>;
