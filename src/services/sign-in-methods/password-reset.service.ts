import type { Events } from '../operations/webhooks.service';
import crypto from 'node:crypto';
import { Op, type Sequelize } from 'sequelize';
import type { Logger } from 'pino';
import type { Config } from '../../config/config';
import type { Models, User } from '../../models';
import type { RequestContext } from '../../http/request-context';
import type { ActivityService } from '../operations/activity.service';
import type { MailOutbox } from '../operations/mail-outbox';
import { AppError } from '../../http/app-error';
import { refuseWeakPassword } from '../../credentials/password-quality';
import { createBackgroundWork } from '../operations/background-work';
import { escapeHtml } from '../../mail/html';
import { normalizeEmail } from '../accounts/user.service';
import type { EmailQuota } from '../operations/email-quota';
import type { CredentialSet } from '../security/credential-set/credential-set';

const RESET_TOKEN_TTL_SECONDS = 60 * 60;
export const RESET_MESSAGES = {
  requested: 'If an account with this email exists, a password reset link has been sent.',
  done: 'Password has been reset',
  invalid: 'Invalid or expired reset token',
} as const;

const TOKEN_BYTES = 32;

export function hashResetToken(token: string): string {
  return crypto.createHash('sha256').update(token, 'utf8').digest('hex');
}

export interface PasswordResetDeps {
  config: Config;
  sequelize: Sequelize;
  models: Models;
  activity: ActivityService;
  mailer: Pick<MailOutbox, 'isConfigured' | 'record' | 'attempt'>;
  logger: Logger;
  /** Hashes a new password the way sign-in checks it (the password service). */
  hashPassword(password: string): Promise<string>;
  /** Ends what a reset ends (sessions, a pending enrolment) and tells the owner what is left (CONTRACT 18). */
  credentials: Pick<CredentialSet, 'end'>;
  /** Lifts the account throttle of the email: the owner proved control of it. */
  clearSignInFailures(email: string): Promise<void>;
  /** Reset mails per address (3 per 15 minutes, as magic links): past it the request is answered the same, and no mail goes out. */
  mailsPerEmail: EmailQuota;
  /** CONTRACT 16: `user.password_changed`, in the reset's transaction. */
  events: Pick<Events, 'recordForUser'>;
}

/**
 * Forgotten passwords (CONTRACT 4). The request answers the same, in about the same time, whether or not
 * the account exists: the request path does one lookup and one activity row either way, and the token
 * and mail are produced after the answer (never awaited on the request path).
 */
export function createPasswordResetService(deps: PasswordResetDeps) {
  const { config, sequelize, models, activity, mailer } = deps;
  const log = deps.logger.child({ component: 'password-reset' });
  /** Deliveries still running, so shutdown and tests can wait for them. */
  const background = createBackgroundWork();

  function resetLink(token: string): string {
    // Always BASE_URL: a forged Host / X-Forwarded-Host never reaches an emailed link.
    return `${config.baseUrl}/auth/reset-password?token=${encodeURIComponent(token)}`;
  }

  /** Creates a fresh token (voiding the user's older ones) and mails the link. Never throws. */
  async function deliver(user: User): Promise<void> {
    try {
      // Asked here, after the answer: the mail settings are a database read the request path never waits for.
      if (!(await mailer.isConfigured())) {
        log.warn({ userId: user.id }, 'password reset requested, but no mail service is configured: no link sent');
        return;
      }
      const token = crypto.randomBytes(TOKEN_BYTES).toString('base64url');
      const expiresAt = new Date(Date.now() + RESET_TOKEN_TTL_SECONDS * 1000);
      const link = resetLink(token);
      const message = {
        to: user.email,
        subject: 'Reset your password',
        text:
          `Someone asked to reset the password of your account (${user.email}).\n\n` +
          `To choose a new password, open this link within one hour:\n${link}\n\n` +
          `If you did not ask for this, ignore this message: your password stays unchanged.\n`,
        html:
          `<p>Someone asked to reset the password of your account (${escapeHtml(user.email)}).</p>` +
          `<p><a href="${escapeHtml(link)}">Choose a new password</a> (the link is valid for one hour).</p>` +
          `<p>If you did not ask for this, ignore this message: your password stays unchanged.</p>`,
      };
      // The mail is recorded with the token it carries: both commit, or neither.
      const mail = await sequelize.transaction(async (transaction) => {
        await models.PasswordResetToken.destroy({ where: { userId: user.id }, transaction });
        await models.PasswordResetToken.create({ id: crypto.randomUUID(), userId: user.id, tokenHash: hashResetToken(token), expiresAt }, { transaction });
        return mailer.record(message, { expiresAt, transaction });
      });
      await mailer.attempt(mail);
    } catch (err) {
      log.error({ err: (err as Error).message, userId: user.id }, 'could not prepare a password reset');
    }
  }

  /**
   * Starts a reset for the email if it names an active account and the address is within its mail quota;
   * the caller always answers the same. The quota counts every address, known or not, before the lookup,
   * so the request path costs the same either way.
   */
  async function requestReset(rawEmail: string, context: RequestContext): Promise<void> {
    const email = normalizeEmail(rawEmail);
    const quota = await deps.mailsPerEmail.take(email);
    const user = await models.User.findOne({ where: { email } });
    const eligible = user !== null && user.active;
    const entry = { action: 'auth.password_reset_requested' as const, userId: user?.id ?? null, email };
    if (!quota.allowed) {
      // A flood at one address: one row per window that counts the requests (see ActivityRepeat).
      const repeat = { key: `auth.password_reset_requested:mail_limit:${email}`, until: quota.until };
      await activity.record({ ...entry, details: { outcome: 'mail_limit' }, repeat }, context);
      return;
    }
    await activity.record({ ...entry, details: eligible ? {} : { outcome: user ? 'inactive_account' : 'unknown_account' } }, context);
    if (!eligible) return;
    background.start(() => deliver(user));
  }

  /** The user a token currently belongs to, or null: unknown, used, expired, or the account is inactive. */
  async function findUsable(token: string): Promise<{ tokenId: string; user: User } | null> {
    if (!token) return null;
    const row = await models.PasswordResetToken.findOne({
      where: { tokenHash: hashResetToken(token), usedAt: null, expiresAt: { [Op.gt]: new Date() } },
    });
    if (!row) return null;
    const user = await models.User.findByPk(row.userId);
    if (!user || !user.active) return null;
    return { tokenId: row.id, user };
  }

  /**
   * Sets the new password. One transaction claims the token (a conditional update: of concurrent uses
   * exactly one changes the row), stores the hash and ends every existing token of the user.
   */
  async function resetPassword(token: string, password: string, context: RequestContext): Promise<void> {
    const usable = await findUsable(token);
    if (!usable) throw AppError.badRequest(RESET_MESSAGES.invalid);
    await refuseWeakPassword('password', password, usable.user);
    // Hashed before the transaction: PBKDF2 takes tens of milliseconds, too long to hold a write lock.
    const passwordHash = await deps.hashPassword(password);
    const { user, tokenId } = usable;
    await sequelize.transaction(async (transaction) => {
      const now = new Date();
      const [claimed] = await models.PasswordResetToken.update(
        { usedAt: now },
        { where: { id: tokenId, usedAt: null, expiresAt: { [Op.gt]: now } }, transaction },
      );
      if (claimed !== 1) throw AppError.badRequest(RESET_MESSAGES.invalid);
      // Still active at the write: a deactivation committed during the hashing refuses the reset (and rolls the claim back).
      const [updated] = await models.User.update({ passwordHash }, { where: { id: user.id, active: true }, transaction });
      if (updated !== 1) throw AppError.badRequest(RESET_MESSAGES.invalid);
      await models.PasswordResetToken.destroy({ where: { userId: user.id, id: { [Op.ne]: tokenId } }, transaction });
      await deps.credentials.end('password-reset', user.id, { transaction, owner: { email: user.email, context } });
      await deps.events.recordForUser('user.password_changed', user.id, { via: 'reset' }, { transaction });
    });
    await deps.clearSignInFailures(user.email);
    await activity.record({ action: 'auth.password_reset', userId: user.id, email: user.email }, context);
  }

  return {
    requestReset,
    resetPassword,
    /** True when the token can still be used (the form page says so before the user types). */
    isUsable: async (token: string) => (await findUsable(token)) !== null,
    /** Resolves when every background delivery started so far has finished. */
    idle: background.idle,
  };
}
