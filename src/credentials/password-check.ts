import type { PasswordService } from './password.service';
import type { AccountThrottle } from './account-throttle';
import type { HashLane } from './hash-queue';
import { normalizeEmail } from '../util/account-text';

/** The stored side of a password check: null when no account has the email. */
export interface PasswordHolder {
  passwordHash: string | null;
  /** A deactivated account's right password is still a failure (sign-in answers the same 401). */
  active: boolean;
}

/** Why a password check failed: for the caller's activity row and answer. */
export type PasswordCheckFailure = 'unknown_email' | 'wrong_password' | 'inactive';

export type PasswordCheckResult =
  | { ok: true; needsRehash: boolean }
  | { ok: false; reason: PasswordCheckFailure }
  /** Too many failures for this email lately (known or not): refused without hashing until `until` (epoch ms). */
  | { ok: false; reason: 'throttled'; retryAfterSeconds: number; until: number };

/** Where a check comes from: `device` is a known browser's id (src/sign-in/device-cookies.ts), when it has one. */
export interface PasswordCheckOrigin {
  device?: string | null;
}

/**
 * The one way a password is checked against an account (sign-in, step-up, the profile's current password):
 * an attempt is reserved in the account throttle first, so a blocked email is refused before any hashing
 * and parallel guesses never hash more than the limit; then one PBKDF2 run (against a dummy hash for an
 * unknown email or a passwordless account, so timing tells nothing); a failure keeps its attempt and a
 * success lifts the throttle. Nothing else calls `passwords.verify`: a check that bypassed the throttle
 * would be an unlimited guessing oracle.
 *
 * A known device (OWASP device cookies, issue 51) has a budget of its own instead of the account's, under the
 * same rule: the failures of everyone else (a credential-stuffing list that names this account) never lock
 * out the browser its owner signed in from, and its hash goes in the priority lane. When a device's own budget
 * is spent, it is treated as any unknown browser (the account's budget, the open lane). Its success clears only
 * its own count: the account's block against unknown browsers stays.
 */
export function createPasswordCheck(deps: { passwords: Pick<PasswordService, 'verify' | 'verifyAgainstDummy'>; throttle: AccountThrottle; deviceThrottle: AccountThrottle }) {
  const { passwords, throttle, deviceThrottle } = deps;

  /** The attempt this check takes, in the device's budget while it has one, else in the account's. */
  async function reserve(email: string, device: string | null | undefined) {
    if (device) {
      const own = await deviceThrottle.reserve(device);
      if (own.ok) return { attempt: own, lane: 'known' as HashLane, clear: () => deviceThrottle.clear(device) };
    }
    return { attempt: await throttle.reserve(email), lane: 'open' as HashLane, clear: () => throttle.clear(email) };
  }

  return async function checkPassword(rawEmail: string, password: string, holder: PasswordHolder | null, origin: PasswordCheckOrigin = {}): Promise<PasswordCheckResult> {
    const email = normalizeEmail(rawEmail);
    const { attempt, lane, clear } = await reserve(email, origin.device);
    if (!attempt.ok) return { ok: false, reason: 'throttled', retryAfterSeconds: attempt.retryAfterSeconds, until: attempt.until };
    const failed = async (reason: PasswordCheckFailure): Promise<PasswordCheckResult> => {
      await attempt.failed();
      return { ok: false, reason };
    };
    try {
      if (!holder) {
        await passwords.verifyAgainstDummy(password, lane);
        return await failed('unknown_email');
      }
      const result = await passwords.verify(password, holder.passwordHash, lane);
      if (!result.ok) return await failed('wrong_password');
      if (!holder.active) return await failed('inactive');
      // The right password forgets every failure (and the attempts still in flight): a new count.
      await clear();
      return { ok: true, needsRehash: result.needsRehash };
    } catch (err) {
      // Nothing was judged (the hash could not run, or its lane was full: a 429): the attempt goes back.
      await attempt.succeeded().catch(() => undefined);
      throw err;
    }
  };
}

export type PasswordChecker = ReturnType<typeof createPasswordCheck>;
