import type { Sequelize } from 'sequelize';
import type { Models, User } from '../models';
import type { PasswordService } from '../credentials/password.service';
import type { PasswordChecker } from '../credentials/password-check';
import type { TokenService } from '../sessions/token.service';
import type { RequestContext } from '../http/request-context';
import type { ActivityService } from './activity.service';
import type { SecurityNotices } from './security-notices';
import { AppError } from '../http/app-error';
import { refuseWeakPassword } from '../credentials/password-quality';

export const ACCOUNT_MESSAGES = {
  wrongPassword: 'is not your current password',
  changedMeanwhile: 'Your password was changed meanwhile; sign in again',
} as const;

/** Self-service changes to one's own account (the admin site's profile page). */
export function createAccountService(deps: {
  sequelize: Sequelize;
  models: Models;
  passwords: Pick<PasswordService, 'hash'>;
  /** The throttled password check sign-in uses: the current password is a guess like any other. */
  checkPassword: PasswordChecker;
  tokens: Pick<TokenService, 'revokeAllForUser'>;
  activity: ActivityService;
  /** CONTRACT 9: the owner is mailed when their password changes. */
  notices?: Pick<SecurityNotices, 'send'>;
}) {
  const { sequelize, models, passwords, checkPassword, tokens, activity, notices } = deps;

  /**
   * Replaces the user's password after checking the current one, and ends every token and session the
   * user has (the epoch moves on): the caller issues a fresh one for the browser that made the change.
   * While the account throttle blocks the email the answer is 429 and the guess is not even hashed.
   * The write is conditional on the hash just checked, so of two parallel changes only one wins.
   * Returns the user as stored afterwards (with the new epoch).
   */
  async function changePassword(userId: string, currentPassword: string, newPassword: string, context: RequestContext): Promise<User> {
    const user = await models.User.findByPk(userId, { rejectOnEmpty: false });
    if (!user) throw AppError.unauthorized();
    const check = await checkPassword(user.email, currentPassword, user);
    if (!check.ok && check.reason === 'throttled') throw AppError.tooManyRequests(check.retryAfterSeconds);
    if (!check.ok) throw AppError.validation({ currentPassword: ACCOUNT_MESSAGES.wrongPassword });
    await refuseWeakPassword('newPassword', newPassword, user);
    // Hashed before the transaction: PBKDF2 takes tens of milliseconds, too long to hold a write lock.
    const passwordHash = await passwords.hash(newPassword);
    await sequelize.transaction(async (transaction) => {
      const [changed] = await models.User.update({ passwordHash }, { where: { id: user.id, passwordHash: user.passwordHash }, transaction });
      if (changed !== 1) throw AppError.conflict(ACCOUNT_MESSAGES.changedMeanwhile);
      await tokens.revokeAllForUser(user.id, { transaction });
    });
    await activity.record({ action: 'auth.password_changed', userId: user.id, email: user.email }, context);
    notices?.send(user.email, {
      subject: 'Your password was changed',
      summary: `The password of your account (${user.email}) was changed, and every other sign-in of yours was ended.`,
      facts: [`When: ${new Date().toUTCString()}`, ...(context.ip ? [`From IP address: ${context.ip}`] : [])],
      advice: 'If this was not you, reset your password at once with "Forgot your password?" on the sign-in page, and contact an administrator.',
    });
    return user.reload();
  }

  return { changePassword };
}

export type AccountService = ReturnType<typeof createAccountService>;
