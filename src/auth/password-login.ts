import type { Logger } from 'pino';
import type { Models } from '../models';
import type { AuthUser } from './auth-user';
import type { AuthUserRecord, AuthUserRecords } from './auth-user-records';
import type { PasswordService } from './password.service';
import { normalizeEmail } from '../services/user.service';
import type { AccountThrottle } from './account-throttle';

/** Why a password sign-in failed: for the activity log only; every client sees the same 401. */
type PasswordLoginFailure = 'unknown_email' | 'wrong_password' | 'inactive';

export type PasswordLoginResult =
  | { ok: true; user: AuthUser; passwordRehashed: boolean }
  | { ok: false; reason: PasswordLoginFailure; email: string; userId: string | null }
  /** Too many failures for this email lately (known or not): 429 until the window ends. */
  | { ok: false; reason: 'throttled'; email: string; userId: string | null; retryAfterSeconds: number };

/**
 * Checks an email and password (the passport-local verify step). Unknown email, wrong password and
 * deactivated account all cost one PBKDF2 run, so timing does not tell them apart. A legacy or weaker
 * hash is replaced on success by a conditional UPDATE (`WHERE id = ? AND password_hash = <old>`), so of
 * many parallel sign-ins exactly one rewrites it.
 */
export function createPasswordLogin(deps: { models: Models; authUsers: AuthUserRecords; passwords: PasswordService; throttle: AccountThrottle; logger: Logger }) {
  const { models, authUsers, passwords, throttle, logger } = deps;

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
    // Before any hashing, the same for unknown and known emails.
    const allowed = await throttle.check(email);
    if (!allowed.allowed) return { ok: false, reason: 'throttled', email, userId, retryAfterSeconds: allowed.retryAfterSeconds };
    const failed = async (reason: PasswordLoginFailure, userId: string | null): Promise<PasswordLoginResult> => {
      await throttle.recordFailure(email);
      return { ok: false, reason, email, userId };
    };
    if (!record) {
      await passwords.verifyAgainstDummy(password);
      return failed('unknown_email', null);
    }
    const result = await passwords.verify(password, record.passwordHash);
    if (!result.ok) return failed('wrong_password', userId);
    if (!record.active) return failed('inactive', userId);
    await throttle.clear(email);
    const passwordRehashed = result.needsRehash ? await upgradeHash(record, password) : false;
    return { ok: true, user: record.user, passwordRehashed };
  }

  return { check };
}

export type PasswordLogin = ReturnType<typeof createPasswordLogin>;
