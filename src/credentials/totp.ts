import crypto from 'node:crypto';
import { lazyModule } from '../util/lazy-module';
import { createSealedBox } from './sealed-box';

// Loaded at the first enrolment or code check: most processes, and most sign-ins, need no TOTP arithmetic.
const otplib = lazyModule(() => require('otplib') as typeof import('otplib'));

/**
 * RFC 6238 as CONTRACT 9 fixes it: HMAC-SHA1, 6 digits, 30-second steps, one step of clock drift either
 * way, a 20-byte secret in base32. otplib does the arithmetic; this module fixes the parameters, so no
 * caller can loosen them.
 */
export const TOTP = { algorithm: 'sha1', digits: 6, periodSeconds: 30, driftSteps: 1, secretBytes: 20 } as const;

/** How many recovery codes a set has, and how each reads: `xxxxx-xxxxx` from an alphabet without look-alikes. */
export const RECOVERY_CODES = { count: 10, groupLength: 5, alphabet: 'abcdefghjkmnpqrstuvwxyz23456789' } as const;

/** A fresh TOTP secret (base32, 20 random bytes). */
export function newTotpSecret(): string {
  return otplib().generateSecret({ length: TOTP.secretBytes });
}

/** `otpauth://totp/<issuer>:<email>?secret=…&issuer=…` for authenticator apps (and the QR code). */
export function otpauthUrl(issuer: string, email: string, secret: string): string {
  return otplib().generateURI({ issuer, label: email, secret, algorithm: TOTP.algorithm, digits: TOTP.digits, period: TOTP.periodSeconds });
}

/**
 * The time step a code belongs to when it is right for the secret now (± the drift) and newer than
 * `afterTimeStep` (the last step this user used: a code is accepted once), else null. Anything but six
 * digits is refused before any HMAC.
 */
export async function checkTotp(secret: string, code: string, afterTimeStep: number | null): Promise<number | null> {
  if (!/^\d{6}$/.test(code)) return null;
  const result = await otplib().verify({
    secret,
    token: code,
    algorithm: TOTP.algorithm,
    digits: TOTP.digits,
    period: TOTP.periodSeconds,
    epochTolerance: TOTP.driftSteps * TOTP.periodSeconds,
    ...(afterTimeStep === null ? {} : { afterTimeStep }),
  });
  // A TOTP verification (the default strategy) names the step it matched.
  return result.valid ? (result as { timeStep: number }).timeStep : null;
}

/**
 * Seals TOTP secrets at rest under their own key (derived from JWT_SECRET); the user id is bound in, so a sealed
 * secret copied to another user's row does not open.
 */
export function createSecretBox(jwtSecret: string) {
  const box = createSealedBox({ secret: jwtSecret, salt: '', info: 'two-factor secret box v1', layout: 'tag-last' });
  return {
    seal: (plain: string, userId: string): string => box.seal(plain, userId),
    /** The secret, or null when the value was not sealed by this key for this user. */
    open: (sealed: string, userId: string): string | null => box.open(sealed, userId)?.toString('utf8') ?? null,
  };
}

/** One random recovery code, `xxxxx-xxxxx` (about 49 bits). */
function newRecoveryCode(): string {
  const { alphabet, groupLength } = RECOVERY_CODES;
  const pick = () => Array.from({ length: groupLength }, () => alphabet[crypto.randomInt(alphabet.length)]).join('');
  return `${pick()}-${pick()}`;
}

/** A typed recovery code as stored: lower case, without spaces or dashes (people copy them loosely). */
export function normalizeRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[\s-]+/g, '');
}

/**
 * Recovery codes are hashed by HMAC-SHA256 under a key derived from JWT_SECRET (not a bare hash: 49
 * bits would fall to a brute force of a dumped table). A high-entropy random code needs no slow hash.
 */
export function createRecoveryCodeHasher(jwtSecret: string) {
  const key = Buffer.from(crypto.hkdfSync('sha256', Buffer.from(jwtSecret, 'utf8'), Buffer.alloc(0), 'recovery codes v1', 32));
  const hash = (code: string) => crypto.createHmac('sha256', key).update(normalizeRecoveryCode(code)).digest('hex');
  /** A new set: the codes to show once, and their hashes to store. */
  const generate = () => {
    const codes = Array.from({ length: RECOVERY_CODES.count }, newRecoveryCode);
    return { codes, hashes: codes.map(hash) };
  };
  return { hash, generate };
}

export type RecoveryCodeHasher = ReturnType<typeof createRecoveryCodeHasher>;
