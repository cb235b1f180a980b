import type { Sequelize } from 'sequelize';
import type { Models, User } from '../../models';
import type { SignInSession } from '../../sessions/token.service';
import type { SessionService } from '../security/session.service';
import type { PasswordService } from '../../credentials/password.service';
import type { PasswordChecker } from '../../credentials/password-check';
import type { RequestContext } from '../../http/request-context';
import type { ActivityService } from '../operations/activity.service';
import type { CredentialSet } from '../security/credential-set/credential-set';
import { AppError } from '../../http/app-error';
import { refuseWeakPassword } from '../../credentials/password-quality';
import type { Events } from '../operations/webhooks.service';

export const ACCOUNT_MESSAGES = {
  wrongPassword: 'is not your current password',
  changedMeanwhile: 'Your password was changed meanwhile; sign in again',
} as const;

/** Self-service changes to one's own account (the profile page and `POST /auth/password`). */
export function createAccountService(deps: {
  sequelize: Sequelize;
  models: Models;
  passwords: Pick<PasswordService, 'hash'>;
  /** The throttled password check sign-in uses: the current password is a guess like any other. */
  checkPassword: PasswordChecker;
  /** Other sessions end, and the owner is mailed, through the credential table (CONTRACT 18). */
  credentials: Pick<CredentialSet, 'end'>;
  userSessions: Pick<SessionService, 'start'>;
  activity: ActivityService;
  /** CONTRACT 16: events recorded with the change. */
  events: Pick<Events, 'recordForUser'>;
}) {
  const { sequelize, models, passwords, checkPassword, credentials, userSessions, activity, events } = deps;

  /** The session the change came from, when it is live: it stays signed in with a token under the new epoch. */
  async function liveSession(userId: string, sessionId: string | undefined) {
    if (!sessionId) return null;
    const row = await models.Session.findByPk(sessionId);
    return row && row.userId === userId && !row.revokedAt && row.expiresAt.getTime() > Date.now() ? row : null;
  }

  /**
   * Replaces the user's password after checking the current one (the one throttled check: while the account
   * throttle blocks the email the answer is 429 and the guess is not even hashed), and ends every other session
   * through the credential table (CONTRACT 18 "password change"), which also mails the owner. The write is
   * conditional on the hash just checked, so of two parallel changes only one wins. Answers the user as stored
   * afterwards (new epoch) and the session to issue its token for: the same one (sid, auth_time, end), or a new
   * one when the request came without a live session of its own (a magic link's server session).
   */
  async function changePassword(
    actor: { userId: string; sessionId: string | undefined; authTime: number | undefined },
    currentPassword: string,
    newPassword: string,
    context: RequestContext,
  ): Promise<{ user: User; session: SignInSession }> {
    const user = await models.User.findByPk(actor.userId);
    if (!user) throw AppError.unauthorized();
    const check = await checkPassword(user.email, currentPassword, user);
    if (!check.ok && check.reason === 'throttled') throw AppError.tooManyRequests(check.retryAfterSeconds);
    if (!check.ok) throw AppError.validation({ currentPassword: ACCOUNT_MESSAGES.wrongPassword });
    await refuseWeakPassword('newPassword', newPassword, user);
    // Hashed before the transaction: PBKDF2 takes tens of milliseconds, too long to hold a write lock.
    const passwordHash = await passwords.hash(newPassword);
    const session = await liveSession(user.id, actor.sessionId);
    await sequelize.transaction(async (transaction) => {
      const [changed] = await models.User.update({ passwordHash }, { where: { id: user.id, passwordHash: user.passwordHash }, transaction });
      if (changed !== 1) throw AppError.conflict(ACCOUNT_MESSAGES.changedMeanwhile);
      await credentials.end('password-change', user.id, { transaction, keep: { sessionId: session?.id }, owner: { email: user.email, context } });
      await events.recordForUser('user.password_changed', user.id, { via: 'profile' }, { transaction });
    });
    await activity.record({ action: 'auth.password_changed', userId: user.id, email: user.email }, context);
    const kept: SignInSession | null = session && actor.authTime !== undefined
      ? { sid: session.id, authTime: actor.authTime, expiresAt: Math.floor(session.expiresAt.getTime() / 1000) }
      : null;
    return { user: await user.reload(), session: kept ?? (await userSessions.start(user, 'password', context)) };
  }

  return { changePassword };
}

export type AccountService = ReturnType<typeof createAccountService>;
