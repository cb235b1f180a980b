import crypto from 'node:crypto';
import { normalizePassword } from './password-quality';
import { createHashThreads, type HashThreads, type Pbkdf2Job } from './hash-threads';
import { createHashQueue, type HashLane, type HashQueue } from './hash-queue';
import { createBcryptThreads, type BcryptThreads } from './bcrypt-threads';
import { FOREIGN_HASH_BOUNDS, FOREIGN_HASH_MESSAGES, createForeignHashes, looksForeign, parseForeignHash, type ForeignHashes } from './foreign-hashes';

const DIGEST = 'sha256';
const SALT_BYTES = 16;
const KEY_BYTES = 32;
/** Stored hashes outside this range are treated as corrupt rather than run (a huge count would stall a login). */
const MAX_ITERATIONS = 10_000_000;
const PBKDF2_FORMAT = /^pbkdf2:(\d{1,8}):([0-9a-f]{32}):([0-9a-f]{64})$/;
/** Legacy hashes: unsalted SHA-256 of the password, as bare hex or prefixed `sha256:`. */
const LEGACY_SHA256_FORMAT = /^(?:sha256:)?([0-9a-f]{64})$/i;

/**
 * An open hash waits at most this long in the hashing queue; beyond it, it is refused at once (429) rather than
 * queued: under a credential-stuffing flood the queue stays short and a known browser's sign-in stays fast.
 */
const MAX_OPEN_WAIT_MS = 5_000;

/** Hashes handed to the threads at once, per thread: the one running and the next, so a thread never idles. */
const SLOTS_PER_THREAD = 2;

const queueOver = (threads: HashThreads): HashQueue<Pbkdf2Job> =>
  createHashQueue({ derive: threads.derive, knownSlot: threads.deriveOnPool, slots: SLOTS_PER_THREAD * threads.count, maxWaitMs: MAX_OPEN_WAIT_MS });

/**
 * One set of hashing threads per process, like libuv's pool, and one queue in front of it: every password
 * service of the process shares them (the machine's cores are what they ration). The same for bcrypt.
 */
let shared: HashThreads | undefined;
const sharedHashThreads = (): HashThreads => (shared ??= createHashThreads());
let sharedQueue: HashQueue<Pbkdf2Job> | undefined;
const sharedHashQueue = (): HashQueue<Pbkdf2Job> => (sharedQueue ??= queueOver(sharedHashThreads()));
let sharedBcrypt: BcryptThreads | undefined;
const sharedBcryptThreads = (): BcryptThreads => (sharedBcrypt ??= createBcryptThreads());

/**
 * Why a stored hash cannot be imported (CONTRACT 17), or null when the service can check it: its own PBKDF2 format,
 * a legacy SHA-256 one (an export of a database that still holds some), or a foreign format within its bounds.
 */
export function importedHashProblem(stored: string): string | null {
  const own = PBKDF2_FORMAT.exec(stored);
  // The same bound as a foreign PBKDF2 hash: an import is no way to bring in a hash that makes a sign-in expensive.
  if (own) return Number(own[1]) < 1 ? FOREIGN_HASH_MESSAGES.malformed : Number(own[1]) > FOREIGN_HASH_BOUNDS.pbkdf2Iterations ? FOREIGN_HASH_MESSAGES.overCost : null;
  if (LEGACY_SHA256_FORMAT.test(stored)) return null;
  const foreign = parseForeignHash(stored);
  return foreign.ok ? null : foreign.error;
}

/** Outcome of a password check; `needsRehash` asks the caller to store a fresh hash (legacy or weaker). */
export interface PasswordCheck {
  ok: boolean;
  needsRehash: boolean;
}

/**
 * Password hashing (SPEC 5.5): PBKDF2-SHA256, a 16-byte random salt per password, a 256-bit key, stored
 * as `pbkdf2:<iterations>:<salt_hex>:<hash_hex>` and compared in constant time. Hashing runs on the
 * process's hashing threads (hash-threads.ts), so it never blocks the event loop.
 *
 * - `hash(password)` → the storage string, at the configured iteration count.
 * - `verify(password, stored)` → `{ ok, needsRehash }`; `needsRehash` is true on success when the stored
 *   hash is a legacy SHA-256 one, a foreign one (an import's bcrypt, Argon2, scrypt or PBKDF2: foreign-hashes.ts)
 *   or uses fewer iterations than configured. Never throws on a malformed
 *   stored value (that is simply `ok: false`).
 * - `verifyAgainstDummy(password)` → always `{ ok: false }`, after the same hashing work as a real check,
 *   so an unknown email or a user without a password costs the same time as a wrong password.
 * - `admits(lane)` → whether a hash in that lane would be taken now (a sign-in asks before any other work).
 * Each hashing call names its lane (hash-queue.ts); `open` unless the caller knows the browser.
 */
export function createPasswordService(options: { iterations: number; threads?: HashThreads; foreign?: ForeignHashes }) {
  const { iterations } = options;
  const threads = options.threads ?? sharedHashThreads();
  const queue = options.threads ? queueOver(options.threads) : sharedHashQueue();
  const foreign = options.foreign ?? createForeignHashes({ hashThreads: threads, bcryptThreads: sharedBcryptThreads() });
  let dummy: Promise<string> | undefined;
  /**
   * PBKDF2 off the event loop (hash-threads.ts): a lone hash on libuv's pool, overlapping ones on the hashing threads,
   * in turn for its lane (hash-queue.ts; a full lane is a 429, nothing hashed). Of the NFKC form, at hashing and at
   * every check alike, so a password signs in however it is spelled.
   */
  const derive = (password: string, salt: Buffer, rounds: number, lane: HashLane): Promise<Buffer> =>
    queue.run({ password: normalizePassword(password), salt, rounds, keyBytes: KEY_BYTES, digest: DIGEST }, lane);

  async function hash(password: string, lane: HashLane = 'open'): Promise<string> {
    const salt = crypto.randomBytes(SALT_BYTES);
    const key = await derive(password, salt, iterations, lane);
    return `pbkdf2:${iterations}:${salt.toString('hex')}:${key.toString('hex')}`;
  }

  async function verifyAgainstDummy(password: string, lane: HashLane = 'open'): Promise<PasswordCheck> {
    // A real hash of a random password at the configured cost, made once per process (in the priority lane: every
    // unknown-email check waits on it).
    dummy ??= hash(crypto.randomBytes(16).toString('hex'), 'known');
    await verifyPbkdf2(password, await dummy, lane);
    return { ok: false, needsRehash: false };
  }

  async function verifyPbkdf2(password: string, stored: string, lane: HashLane): Promise<boolean | null> {
    const match = PBKDF2_FORMAT.exec(stored);
    if (!match) return null;
    const rounds = Number(match[1]);
    if (rounds < 1 || rounds > MAX_ITERATIONS) return null;
    const expected = Buffer.from(match[3], 'hex');
    const actual = await derive(password, Buffer.from(match[2], 'hex'), rounds, lane);
    return crypto.timingSafeEqual(actual, expected);
  }

  async function verify(password: string, stored: string | null | undefined, lane: HashLane = 'open'): Promise<PasswordCheck> {
    if (typeof stored !== 'string' || stored === '') return verifyAgainstDummy(password, lane);
    const pbkdf2Result = await verifyPbkdf2(password, stored, lane);
    if (pbkdf2Result !== null) {
      const rounds = Number(stored.split(':')[1]);
      return { ok: pbkdf2Result, needsRehash: pbkdf2Result && rounds < iterations };
    }
    const legacy = LEGACY_SHA256_FORMAT.exec(stored);
    if (legacy) {
      const expected = Buffer.from(legacy[1].toLowerCase(), 'hex');
      const actual = crypto.createHash('sha256').update(password, 'utf8').digest();
      const ok = crypto.timingSafeEqual(actual, expected);
      // A wrong guess costs what it costs for PBKDF2 users (a right one pays for the re-hash instead).
      if (!ok) return verifyAgainstDummy(password, lane);
      return { ok: true, needsRehash: true };
    }
    if (looksForeign(stored)) {
      // A wrong password costs the foreign hash's own work (bounded at import), as it did on the system it came from.
      // (Not through the lanes' queue: the sign-in asked the queue for its lane before reading the account.)
      const ok = await foreign.verify(password, stored);
      if (ok !== null) return { ok, needsRehash: ok };
    }
    return verifyAgainstDummy(password, lane);
  }

  return { hash, verify, verifyAgainstDummy, admits: queue.admits };
}

export type PasswordService = ReturnType<typeof createPasswordService>;
