import type { Logger } from 'pino';
import type { Models, User } from '../models';
import { toAuthUser, type AuthUser } from './auth-user';
import type { PasswordService } from './password.service';
import { normalizeEmail } from '../services/user.service';

/** Why a password sign-in failed: for the activity log only; every client sees the same 401. */
type PasswordLoginFailure = 'unknown_email' | 'wrong_password' | 'inactive';

export type PasswordLoginResult =
  | { ok: true; user: AuthUser; passwordRehashed: boolean }
  | { ok: false; reason: PasswordLoginFailure; email: string; userId: string | null };

/**
 * Checks an email and password (the passport-local verify step). Unknown email, wrong password and
 * deactivated account all cost one PBKDF2 run, so timing does not tell them apart. A legacy or weaker
 * hash is replaced on success by a conditional UPDATE (`WHERE id = ? AND password_hash = <old>`), so of
 * many parallel sign-ins exactly one rewrites it.
 */
export function createPasswordLogin(deps: { models: Models; passwords: PasswordService; logger: Logger }) {
  const { models, passwords, logger } = deps;

  async function upgradeHash(user: User, password: string): Promise<boolean> {
    try {
      const fresh = await passwords.hash(password);
      const [changed] = await models.User.update(
        { passwordHash: fresh },
        { where: { id: user.id, passwordHash: user.passwordHash } },
      );
      return changed === 1;
    } catch (err) {
      // The sign-in itself succeeded; the upgrade is tried again at the next one.
      logger.warn({ err: (err as Error).message, userId: user.id }, 'could not upgrade a password hash');
      return false;
    }
  }

  async function check(rawEmail: string, password: string): Promise<PasswordLoginResult> {
    const email = normalizeEmail(rawEmail);
    const user = await models.User.findOne({ where: { email }, include: [{ model: models.UserProfile, as: 'profile' }] });
    if (!user) {
      await passwords.verifyAgainstDummy(password);
      return { ok: false, reason: 'unknown_email', email, userId: null };
    }
    const result = await passwords.verify(password, user.passwordHash);
    if (!result.ok) return { ok: false, reason: 'wrong_password', email, userId: user.id };
    if (!user.active) return { ok: false, reason: 'inactive', email, userId: user.id };
    const passwordRehashed = result.needsRehash ? await upgradeHash(user, password) : false;
    return { ok: true, user: toAuthUser(user), passwordRehashed };
  }

  return { check };
}

export type PasswordLogin = ReturnType<typeof createPasswordLogin>;
