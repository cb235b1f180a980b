import type { PasswordService } from './password.service';
import type { AccountThrottle } from './account-throttle';
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

/**
 * The one way a password is checked against an account (sign-in, step-up, the profile's current password):
 * an attempt is reserved in the account throttle first, so a blocked email is refused before any hashing
 * and parallel guesses never hash more than the limit; then one PBKDF2 run (against a dummy hash for an
 * unknown email or a passwordless account, so timing tells nothing); a failure keeps its attempt and a
 * success lifts the throttle. Nothing else calls `passwords.verify`: a check that bypassed the throttle
 * would be an unlimited guessing oracle.
 */
export function createPasswordCheck(deps: { passwords: Pick<PasswordService, 'verify' | 'verifyAgainstDummy'>; throttle: AccountThrottle }) {
  const { passwords, throttle } = deps;

  return async function checkPassword(rawEmail: string, password: string, holder: PasswordHolder | null): Promise<PasswordCheckResult> {
    const email = normalizeEmail(rawEmail);
    const attempt = await throttle.reserve(email);
    if (!attempt.ok) return { ok: false, reason: 'throttled', retryAfterSeconds: attempt.retryAfterSeconds, until: attempt.until };
    const failed = async (reason: PasswordCheckFailure): Promise<PasswordCheckResult> => {
      await attempt.failed();
      return { ok: false, reason };
    };
    try {
      if (!holder) {
        await passwords.verifyAgainstDummy(password);
        return await failed('unknown_email');
      }
      const result = await passwords.verify(password, holder.passwordHash);
      if (!result.ok) return await failed('wrong_password');
      if (!holder.active) return await failed('inactive');
      // The right password forgets every failure (and the attempts still in flight): a new count.
      await throttle.clear(email);
      return { ok: true, needsRehash: result.needsRehash };
    } catch (err) {
      // Nothing was judged (the hash could not run): the attempt goes back.
      await attempt.succeeded().catch(() => undefined);
      throw err;
    }
  };
}

export type PasswordChecker = ReturnType<typeof createPasswordCheck>;
