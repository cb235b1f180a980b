import crypto, { type KeyObject } from 'node:crypto';

/**
 * The purposes JWT_SECRET serves, each with its own key derived by HKDF-SHA256 (issue 44): a value made
 * under one key (a CSRF mac, a code's HMAC, a decoy id) is worth nothing as another (a token signature).
 * The labels are fixed forever: changing one voids everything made under it. The older derivations
 * (sealed boxes, API keys, recovery codes) keep their own labels.
 */
export const SUB_KEY_PURPOSES = {
  tokenSigning: 'token-signing.hs256.v1',
  csrf: 'csrf.v1',
  otpCodes: 'otp-codes.v1',
  passkeyDecoys: 'passkey-decoys.v1',
  deviceCookies: 'device-cookies.v1',
} as const;

export type SubKeyPurpose = keyof typeof SUB_KEY_PURPOSES;

const SALT = 'auth-service';
/** Derived once per secret and purpose in a process: the call sites include request paths. */
const derived = new Map<string, KeyObject>();

/** The 256-bit key of one purpose, derived from JWT_SECRET; the one way any part of the service derives it. */
export function subKey(secret: string, purpose: SubKeyPurpose): KeyObject {
  const id = `${purpose}\0${secret}`;
  let key = derived.get(id);
  if (!key) {
    key = crypto.createSecretKey(Buffer.from(crypto.hkdfSync('sha256', Buffer.from(secret, 'utf8'), SALT, SUB_KEY_PURPOSES[purpose], 32)));
    derived.set(id, key);
  }
  return key;
}
