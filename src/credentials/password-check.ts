import type { PasswordService } from './password.service';
import type { AccountThrottle } from './account-throttle';
import { normalizeEmail } from '../http/input-rules';

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
 * The one way a password is checked against an account (sign-in, the profile's current password): the
 * account throttle first, so a blocked email is refused before any hashing and whatever the guess; then
 * one PBKDF2 run (against a dummy hash for an unknown email or a passwordless account, so timing tells
 * nothing); every failure counts in the throttle and a success lifts it. Nothing else calls
 * `passwords.verify`: a check that bypassed the throttle would be an unlimited guessing oracle.
 */
export function createPasswordCheck(deps: { passwords: Pick<PasswordService, 'verify' | 'verifyAgainstDummy'>; throttle: AccountThrottle }) {
  const { passwords, throttle } = deps;

  return async function checkPassword(rawEmail: string, password: string, holder: PasswordHolder | null): Promise<PasswordCheckResult> {
    const email = normalizeEmail(rawEmail);
    const allowed = await throttle.check(email);
    if (!allowed.allowed) return { ok: false, reason: 'throttled', retryAfterSeconds: allowed.retryAfterSeconds, until: allowed.until };
    const failed = async (reason: PasswordCheckFailure): Promise<PasswordCheckResult> => {
      await throttle.recordFailure(email);
      return { ok: false, reason };
    };
    if (!holder) {
      await passwords.verifyAgainstDummy(password);
      return failed('unknown_email');
    }
    const result = await passwords.verify(password, holder.passwordHash);
    if (!result.ok) return failed('wrong_password');
    if (!holder.active) return failed('inactive');
    await throttle.clear(email);
    return { ok: true, needsRehash: result.needsRehash };
  };
}

export type PasswordChecker = ReturnType<typeof createPasswordCheck>;
