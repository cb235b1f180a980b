import type { Logger } from 'pino';
import type { Models } from '../models';
import type { AuthUser } from '../sessions/auth-user';
import type { AuthUserRecord, AuthUserRecords } from '../sessions/auth-user-records';
import type { PasswordService } from '../credentials/password.service';
import { normalizeEmail } from '../services/accounts/user.service';
import type { PasswordCheckFailure, PasswordChecker } from '../credentials/password-check';
import type { EmailVerificationService } from '../services/accounts/email-verification.service';

export type PasswordLoginResult =
  | { ok: true; user: AuthUser; passwordRehashed: boolean }
  /** Unknown email, wrong password, deactivated: the reason is for the activity log only; every client sees the same 401. */
  | { ok: false; reason: PasswordCheckFailure; email: string; userId: string | null }
  /** The right password of an unverified account while `requireVerifiedEmail` is on: 403 (CONTRACT 12). */
  | { ok: false; reason: 'email_not_verified'; email: string; userId: string }
  /** Too many failures for this email lately (known or not): 429 until the block ends (`until`, epoch ms). */
  | { ok: false; reason: 'throttled'; email: string; userId: string | null; retryAfterSeconds: number; until: number };

/**
 * Checks an email and password (the passport-local verify step) through the one password check, which
 * applies the account throttle and costs one PBKDF2 run for unknown email, wrong password and
 * deactivated account alike, so timing does not tell them apart. A legacy or weaker
 * hash is replaced on success by a conditional UPDATE (`WHERE id = ? AND password_hash = <old>`), so of
 * many parallel sign-ins exactly one rewrites it.
 */
export function createPasswordLogin(deps: {
  models: Models;
  authUsers: AuthUserRecords;
  passwords: Pick<PasswordService, 'hash'>;
  checkPassword: PasswordChecker;
  /** Only after the right password: whether an unverified address may sign in (and its new link). */
  verification: Pick<EmailVerificationService, 'passwordSignInAllowed'>;
  logger: Logger;
}) {
  const { models, authUsers, passwords, checkPassword, logger } = deps;

  async function upgradeHash(record: AuthUserRecord, password: string): Promise<boolean> {
    try {
      const fresh = await passwords.hash(password);
      const [changed] = await models.User.update(
        { passwordHash: fresh },
        { where: { id: record.user.id, passwordHash: record.passwordHash } },
      );
      return changed === 1;
    } catch (err) {
      // The sign-in itself succeeded; the upgrade is tried again at the next one.
      logger.warn({ err: (err as Error).message, userId: record.user.id }, 'could not upgrade a password hash');
      return false;
    }
  }

  async function check(rawEmail: string, password: string): Promise<PasswordLoginResult> {
    const email = normalizeEmail(rawEmail);
    const record = await authUsers.byEmail(email);
    const userId = record?.user.id ?? null;
    const result = await checkPassword(email, password, record);
    if (!result.ok) return { ...result, email, userId };
    // Only a stored hash can match, so a success always has its record.
    const matched = record as AuthUserRecord;
    const passwordRehashed = result.needsRehash ? await upgradeHash(matched, password) : false;
    if (!(await deps.verification.passwordSignInAllowed(matched.user))) return { ok: false, reason: 'email_not_verified', email, userId: matched.user.id };
    return { ok: true, user: matched.user, passwordRehashed };
  }

  return { check };
}

export type PasswordLogin = ReturnType<typeof createPasswordLogin>;
