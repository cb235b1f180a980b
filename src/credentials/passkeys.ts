import crypto from 'node:crypto';
import net from 'node:net';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { lazyModule } from '../util/lazy-module';
import type { KeyValueStore } from '../store';

// The ceremonies' library (about 16 MiB and 90 ms to load) comes in at the first ceremony; the base64url work every
// passkey route does is Node's own.
const webauthn = lazyModule(() => require('@simplewebauthn/server') as typeof import('@simplewebauthn/server'));

/** base64url as WebAuthn writes it: padding tolerated, nothing but its alphabet. */
const base64url = {
  isValid: (value: string) => /^[A-Za-z0-9_-]*$/.test(value.replace(/=+$/, '')),
  toBytes: (value: string) => new Uint8Array(Buffer.from(value, 'base64url')),
  fromBytes: (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url'),
  fromText: (text: string) => Buffer.from(text, 'utf8').toString('base64url'),
};

/** How long a ceremony's challenge lives (CONTRACT 10): the browser's timeout and the store's TTL alike. */
export const PASSKEY_CHALLENGE_SECONDS = 5 * 60;

/** The WebAuthn relying party the service is: BASE_URL's host, its origin, and APP_NAME. */
export interface RelyingParty {
  id: string;
  origin: string;
  name: string;
}

/**
 * The relying party of a BASE_URL, or null when its host is an IP address: WebAuthn takes only a domain as
 * RP ID, so browsers refuse every ceremony there and the service offers no passkey at all.
 */
export function relyingPartyOf(baseUrl: string, name: string): RelyingParty | null {
  const url = new URL(baseUrl);
  // An IPv6 host comes back bracketed ("[::1]").
  if (net.isIP(url.hostname.replace(/^\[|\]$/g, '')) !== 0) return null;
  return { id: url.hostname, origin: url.origin, name };
}

/** A stored credential as a ceremony needs it: id and public key in base64url, the counter last seen. */
export interface StoredCredential {
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: string[];
}

/** A credential a registration produced, in the form it is stored. */
export interface NewCredential extends StoredCredential {
  deviceType: string;
  backedUp: boolean;
  userVerified: boolean;
}

/**
 * What a challenge was issued for: a registration by one user, a sign-in (for one user after `{ email }`), or
 * the second step of one user's sign-in. Each answers its own ceremony only.
 */
export type ChallengeRecord = { kind: 'register'; userId: string } | { kind: 'login'; userId: string | null } | { kind: 'second_step'; userId: string };

/** The SHA-256 of a credential id's bytes (hex): the unique lookup key of a stored passkey. */
export function credentialHash(credentialId: string): string {
  return crypto.createHash('sha256').update(base64url.toBytes(credentialId)).digest('hex');
}

/** The credential id in canonical base64url (no padding), or null when it is not base64url at all. */
export function canonicalCredentialId(raw: string): string | null {
  if (!base64url.isValid(raw)) return null;
  const bytes = base64url.toBytes(raw);
  return bytes.length === 0 ? null : base64url.fromBytes(bytes);
}

/** A user handle (WebAuthn `user.id`): our user id's UTF-8 bytes, in base64url as responses carry it. */
export function userHandleOf(userId: string): string {
  return base64url.fromText(userId);
}

/**
 * Why a verification failed, in a word for the activity row (never the library's text, which quotes the
 * challenge and origin the client sent).
 */
export function failureReason(err: unknown): string {
  const text = err instanceof Error ? err.message : '';
  if (/origin/i.test(text)) return 'origin';
  if (/RP ID/i.test(text)) return 'rp_id';
  if (/counter/i.test(text)) return 'counter';
  if (/user verification|could not be verified/i.test(text)) return 'user_verification';
  if (/signature/i.test(text)) return 'signature';
  return 'invalid_response';
}

/**
 * The two WebAuthn ceremonies (SimpleWebAuthn's example server's shape): options with a fresh challenge kept
 * in the key-value store, then verify, which takes that challenge out of the store (single use: a second
 * verify with it finds nothing, on any instance) before the library checks origin, RP ID, signature and
 * counter. Nothing here reads the database: callers bring the user's credentials.
 */
export function createPasskeyCeremonies(deps: { rp: RelyingParty; store: KeyValueStore }) {
  const { rp, store } = deps;
  const timeout = PASSKEY_CHALLENGE_SECONDS * 1000;
  // Keyed by a hash: the challenge a response quotes is the client's text, of any length.
  const keyOf = (challenge: string) => `passkey-challenge:${crypto.createHash('sha256').update(challenge).digest('hex')}`;

  async function remember(challenge: string, record: ChallengeRecord): Promise<void> {
    await store.set(keyOf(challenge), JSON.stringify(record), PASSKEY_CHALLENGE_SECONDS);
  }

  /**
   * The challenge a response answers, taken from the store: the record it was issued with, or null when it is
   * unknown, expired or already used (or the response quotes none).
   */
  async function claimChallenge(clientDataJSON: string): Promise<{ challenge: string; record: ChallengeRecord } | null> {
    let challenge: unknown;
    try {
      challenge = (JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as { challenge?: unknown }).challenge;
    } catch {
      return null;
    }
    if (typeof challenge !== 'string' || challenge === '') return null;
    const stored = await store.take(keyOf(challenge));
    return stored === null ? null : { challenge, record: JSON.parse(stored) as ChallengeRecord };
  }

  /** Creation options: resident key and user verification preferred, no attestation, the user's own passkeys excluded. */
  async function registrationOptions(user: { id: string; name: string; displayName: string }, existing: StoredCredential[]): Promise<PublicKeyCredentialCreationOptionsJSON> {
    const options = await webauthn().generateRegistrationOptions({
      rpName: rp.name,
      rpID: rp.id,
      userID: base64url.toBytes(userHandleOf(user.id)),
      userName: user.name,
      userDisplayName: user.displayName,
      timeout,
      attestationType: 'none',
      excludeCredentials: existing.map((credential) => ({ id: credential.credentialId, transports: credential.transports })),
      authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
    });
    await remember(options.challenge, { kind: 'register', userId: user.id });
    return options;
  }

  /** Checks a registration response against this RP; throws the library's error when it does not hold. */
  async function verifyRegistration(response: RegistrationResponseJSON, challenge: string): Promise<NewCredential> {
    const verified = await webauthn().verifyRegistrationResponse({ response, expectedChallenge: challenge, expectedOrigin: rp.origin, expectedRPID: rp.id, requireUserVerification: false });
    if (!verified.verified) throw new Error('registration not verified');
    const { credential, credentialDeviceType, credentialBackedUp, userVerified } = verified.registrationInfo;
    return {
      credentialId: credential.id,
      publicKey: base64url.fromBytes(credential.publicKey),
      counter: credential.counter,
      transports: credential.transports ?? [],
      deviceType: credentialDeviceType,
      backedUp: credentialBackedUp,
      userVerified,
    };
  }

  /**
   * Request options: discoverable (no allowCredentials) or for the listed credentials. User verification is
   * preferred for a sign-in and required for a second step (where the passkey stands as the second factor).
   */
  async function authenticationOptions(allow: Array<{ id: string; transports?: string[] }> | null, record: Exclude<ChallengeRecord, { kind: 'register' }>): Promise<PublicKeyCredentialRequestOptionsJSON> {
    const options = await webauthn().generateAuthenticationOptions({
      rpID: rp.id,
      timeout,
      userVerification: record.kind === 'second_step' ? 'required' : 'preferred',
      ...(allow ? { allowCredentials: allow } : {}),
    });
    await remember(options.challenge, record);
    return options;
  }

  /** Checks an assertion against a stored credential; throws the library's error when it does not hold. */
  async function verifyAuthentication(
    response: AuthenticationResponseJSON,
    challenge: string,
    credential: StoredCredential,
    requireUserVerification: boolean,
  ): Promise<{ newCounter: number; userVerified: boolean; backedUp: boolean }> {
    const verified = await webauthn().verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification,
      credential: { id: credential.credentialId, publicKey: base64url.toBytes(credential.publicKey), counter: credential.counter, transports: credential.transports },
    });
    if (!verified.verified) throw new Error('signature not verified');
    const { newCounter, userVerified, credentialBackedUp } = verified.authenticationInfo;
    return { newCounter, userVerified, backedUp: credentialBackedUp };
  }

  return { rp, claimChallenge, registrationOptions, verifyRegistration, authenticationOptions, verifyAuthentication };
}

export type PasskeyCeremonies = ReturnType<typeof createPasskeyCeremonies>;

/**
 * Stand-in allowCredentials for an email without passkeys (unknown, or a user who has none), so `{ email }`
 * options never tell whether an account exists: one or two ids of the lengths real authenticators use, derived
 * from the email under a server secret, so asking twice gives the same answer as for a real account.
 */
export function decoyCredentials(secret: string | crypto.KeyObject, email: string): Array<{ id: string }> {
  const seed = crypto.createHmac('sha256', secret).update(`passkey-decoy\0${email}`).digest();
  const count = 1 + (seed[0] % 2);
  const lengths = [16, 20, 32, 64];
  return Array.from({ length: count }, (_, index) => {
    const length = lengths[seed[1 + index] % lengths.length];
    const bytes = crypto.createHmac('sha256', secret).update(`passkey-decoy-id\0${index}\0${email}`).digest();
    const id = Buffer.concat([bytes, crypto.createHash('sha256').update(bytes).digest()]).subarray(0, length);
    return { id: base64url.fromBytes(new Uint8Array(id)) };
  });
}
