import { eventUser } from '../operations/webhook-events';
import type { Events } from '../operations/webhooks.service';
import { UniqueConstraintError, type Sequelize, type Transaction } from 'sequelize';
import type { Logger } from 'pino';
import type { Models, User } from '../../models';
import type { PasswordChecker } from '../../credentials/password-check';
import type { TokenService } from '../../sessions/token.service';
import type { AdminAudit, RequestContext } from '../../http/request-context';
import { AppError } from '../../http/app-error';
import { transactionWithRetry } from '../../db/transaction-retry';
import { renderAccountLinkEmail } from '../../mail/account-link-email';
import type { ActivityService } from '../operations/activity.service';
import type { MailOutbox } from '../operations/mail-outbox';
import type { EmailQuota } from '../operations/email-quota';
import type { SecurityNotices } from '../security/security-notices';
import type { SessionService } from '../security/session.service';
import { EMAIL_LINK_TTL_SECONDS, type EmailLinks } from './email-links';
import { createBackgroundWork } from '../operations/background-work';
import type { CredentialSet } from '../security/credential-set/credential-set';

export const ACCOUNT_LIFECYCLE_MESSAGES = {
  changeRequested: 'If the address can be used, a confirmation link has been sent to it. Your address changes when you open that link.',
  invalidLink: 'This link is invalid, was already used or has expired.',
  sameEmail: 'is already your address',
  currentPasswordRequired: 'is required',
  wrongPassword: 'is not your current password',
  lastAdmin: 'You are the last active admin: make another user an admin before deleting your account',
  notFound: 'User not found',
} as const;

/** The most activity rows an export carries (newest first); `activityTruncated` says when there were more. */
export const EXPORT_ACTIVITY_LIMIT = 5000;

/** Who asks: the signed-in user and the session the request came from (kept signed in after a change). */
export interface AccountActor {
  userId: string;
  sessionId: string | undefined;
  context: RequestContext;
}

/**
 * The account's own life (CONTRACT 12) beyond sign-in: moving to a new address, deleting the account, and
 * taking one's data along. The web layer has checked step-up (a recent sign-in) before any of these.
 */
export function createAccountLifecycleService(deps: {
  sequelize: Sequelize;
  models: Models;
  checkPassword: PasswordChecker;
  tokens: Pick<TokenService, 'userChanged'>;
  /** Deletion ends every credential through the one table (CONTRACT 18). */
  credentials: Pick<CredentialSet, 'removeAccount'>;
  /** CONTRACT 16: `user.updated` when the owner's new address is confirmed, `user.deleted` when they delete the account. */
  events: Pick<Events, 'record'>;
  userSessions: Pick<SessionService, 'revokeAll' | 'list'>;
  links: EmailLinks;
  mailer: Pick<MailOutbox, 'send'>;
  notices: Pick<SecurityNotices, 'send'>;
  activity: ActivityService;
  logger: Logger;
  /** Change links count per new address like reset and magic links (email-quota.ts). */
  mailsPerEmail: EmailQuota;
}) {
  const { sequelize, models, checkPassword, tokens, credentials, userSessions, links, mailer, notices, activity, mailsPerEmail } = deps;
  const log = deps.logger.child({ component: 'account-lifecycle' });
  const background = createBackgroundWork();

  async function owner(userId: string): Promise<User> {
    const user = await models.User.findByPk(userId);
    if (!user) throw AppError.unauthorized();
    return user;
  }

  /** The current password, when the account has one: a throttled guess like any other (429 while blocked). */
  async function checkCurrentPassword(user: User, currentPassword: string | undefined): Promise<void> {
    if (!user.passwordHash) return;
    if (!currentPassword) throw AppError.validation({ currentPassword: ACCOUNT_LIFECYCLE_MESSAGES.currentPasswordRequired });
    const check = await checkPassword(user.email, currentPassword, user);
    if (!check.ok && check.reason === 'throttled') throw AppError.tooManyRequests(check.retryAfterSeconds);
    if (!check.ok) throw AppError.validation({ currentPassword: ACCOUNT_LIFECYCLE_MESSAGES.wrongPassword });
  }

  /**
   * Mails the confirmation link to a free address within its quota; a taken one gets nothing. Counted for every
   * address, taken or not, so the quota tells nothing either. After the answer, never throws.
   */
  function mailChangeLink(user: User, newEmail: string, sessionId: string | undefined): void {
    background.start(async () => {
      try {
        const quota = await mailsPerEmail.take(newEmail);
        if (!quota.allowed) {
          log.warn({ userId: user.id }, 'email change link not sent: the new address had its share of mail for now');
          return;
        }
        if (await models.User.findOne({ attributes: ['id'], where: { email: newEmail } })) return;
        const url = await links.create(user.id, 'change', { newEmail, sessionId: sessionId ?? null });
        const expiresAt = new Date(Date.now() + EMAIL_LINK_TTL_SECONDS * 1000);
        await mailer.send({ to: newEmail, ...renderAccountLinkEmail('change', { url, email: newEmail, expiresInHours: EMAIL_LINK_TTL_SECONDS / 3600 }) }, { expiresAt });
      } catch (err) {
        log.error({ err: (err as Error).message, userId: user.id }, 'could not send an email change link');
      }
    });
  }

  /**
   * POST /auth/email/change: the same answer whether or not the new address is taken (the lookup and the
   * mail happen after the answer, and a taken address gets no mail). Nothing changes until the link is used.
   */
  async function requestEmailChange(actor: AccountActor, input: { newEmail: string; currentPassword?: string }): Promise<void> {
    const user = await owner(actor.userId);
    await checkCurrentPassword(user, input.currentPassword);
    if (input.newEmail === user.email) throw AppError.validation({ newEmail: ACCOUNT_LIFECYCLE_MESSAGES.sameEmail });
    await activity.record({ action: 'user.email_change_requested', userId: user.id, email: user.email }, actor.context);
    // The earlier link dies now, whether or not this one is sent (a taken address, the quota): only the latest request may move the account.
    await links.voidFor(user.id, undefined, 'change');
    mailChangeLink(user, input.newEmail, actor.sessionId);
  }

  /** The writes of a confirmed change, in one transaction; null when the address was taken meanwhile. */
  async function moveAddress(userId: string, newEmail: string, transaction: Transaction): Promise<{ from: string } | null> {
    const user = await models.User.findByPk(userId, { transaction, lock: transaction.LOCK.UPDATE });
    if (!user || !user.active) return null;
    if (await models.User.findOne({ attributes: ['id'], where: { email: newEmail }, transaction })) return null;
    const from = user.email;
    await models.User.update({ email: newEmail, emailVerifiedAt: new Date() }, { where: { id: userId }, transaction });
    // CONTRACT 16: the owner moved their own account (the new address is proven by the link, which the event never carries).
    const changes = { email: { from, to: newEmail }, ...(user.emailVerifiedAt ? {} : { emailVerified: { from: false, to: true } }) };
    await deps.events.record('user.updated', { user: { ...eventUser(user), email: newEmail }, changes, actor: { id: userId, email: newEmail } }, { transaction });
    // Codes, sign-in links and reset links went to the old address: none of them opens the account any more.
    await models.OtpCode.destroy({ where: { userEmail: from }, transaction });
    await models.AuthVerification.destroy({ where: { identifier: from }, transaction });
    await models.PasswordResetToken.destroy({ where: { userId }, transaction });
    await links.voidFor(userId, transaction);
    return { from };
  }

  /**
   * GET /auth/email/confirm: uses the link once and moves the account to the new address (now verified),
   * then ends every session but the one that asked, and mails the old address a notice. False for a link
   * that is unknown, tampered, used, expired, or whose address was taken meanwhile (one answer for all).
   */
  async function confirmEmailChange(token: string, context: RequestContext): Promise<boolean> {
    const row = await links.claim(token, 'change');
    if (!row || !row.newEmail) return false;
    const newEmail = row.newEmail;
    const moved = await transactionWithRetry(sequelize, (transaction) => moveAddress(row.userId, newEmail, transaction)).catch((err: unknown) => {
      if (err instanceof UniqueConstraintError) return null;
      throw err;
    });
    if (!moved) return false;
    const audit: AdminAudit = { actor: { id: row.userId, email: newEmail }, context };
    await userSessions.revokeAll(row.userId, row.sessionId ?? undefined, audit);
    await tokens.userChanged(row.userId);
    await activity.record({ action: 'user.email_changed', userId: row.userId, email: newEmail, details: { from: moved.from, to: newEmail } }, context);
    notices.send(moved.from, {
      subject: 'The email address of your account was changed',
      summary: `Your account now uses ${newEmail} instead of this address (${moved.from}). Mail about the account goes there from now on.`,
      context,
      advice:
        'If this was not you, someone else controls your account: reply to your administrator at once. ' +
        'Every other session of the account has been signed out.',
    });
    return true;
  }

  /** Locks every active admin row (in one order, as user administration does) and answers their ids. */
  async function lockActiveAdmins(transaction: Transaction): Promise<Set<string>> {
    const admins = await models.User.findAll({ attributes: ['id'], where: { role: 'admin', active: true }, order: [['id', 'ASC']], lock: transaction.LOCK.UPDATE, transaction });
    return new Set(admins.map((admin) => admin.id));
  }

  /**
   * DELETE /auth/account: the account and everything that is only its own go in one transaction: the row,
   * and through ON DELETE CASCADE its profile, linked accounts, sessions, reset tokens, email links,
   * passkeys, API keys and second-factor rows; codes and sign-in links by address. Content stays without
   * an author (SET NULL); activity rows stay (the log of what happened). The last active admin: 409.
   */
  async function deleteOwnAccount(actor: AccountActor): Promise<void> {
    const email = await transactionWithRetry(sequelize, async (transaction) => {
      const admins = await lockActiveAdmins(transaction);
      const user = await models.User.findByPk(actor.userId, { transaction, lock: transaction.LOCK.UPDATE });
      if (!user) throw AppError.notFound(ACCOUNT_LIFECYCLE_MESSAGES.notFound);
      if (admins.has(user.id) && admins.size <= 1) throw AppError.conflict(ACCOUNT_LIFECYCLE_MESSAGES.lastAdmin);
      // CONTRACT 16: written before the row goes, in the same transaction (the event names the user as it was).
      await deps.events.record('user.deleted', { user: eventUser(user), actor: { id: user.id, email: user.email }, via: 'self' }, { transaction });
      await credentials.removeAccount(user, transaction);
      return user.email;
    });
    await activity.record({ action: 'user.account_deleted', userId: actor.userId, email, details: { by: 'self' } }, actor.context);
  }

  /** The user's passkeys, public columns only, when the passkeys table exists in this build. */
  async function passkeysOf(userId: string): Promise<Array<Record<string, unknown>>> {
    const model = (models as unknown as { Passkey?: Models['User'] }).Passkey;
    if (!model) return [];
    const rows = await model.findAll({ attributes: ['id', 'name', 'createdAt', 'lastUsedAt'], where: { userId } as never, order: [['createdAt', 'ASC']], raw: true });
    return rows as unknown as Array<Record<string, unknown>>;
  }

  /**
   * GET /auth/account/export: the user's own data as JSON (CONTRACT 12): profile, linked accounts,
   * sessions, passkeys and activity rows. Public data only: no hash, secret, token or key material.
   */
  async function exportAccount(actor: AccountActor) {
    const user = await models.User.findByPk(actor.userId, { include: [{ model: models.UserProfile, as: 'profile' }] });
    if (!user) throw AppError.unauthorized();
    const profile = (user as User & { profile?: InstanceType<Models['UserProfile']> | null }).profile ?? null;
    const [linked, sessions, passkeys, activityRows] = await Promise.all([
      models.OAuthAccount.findAll({ where: { userId: user.id }, order: [['createdAt', 'ASC']] }),
      userSessions.list(user.id, actor.sessionId),
      passkeysOf(user.id),
      models.ActivityLog.findAll({ where: { userId: user.id }, order: [['createdAt', 'DESC'], ['id', 'DESC']], limit: EXPORT_ACTIVITY_LIMIT + 1 }),
    ]);
    await activity.record({ action: 'user.account_exported', userId: user.id, email: user.email }, actor.context);
    return {
      exportedAt: new Date(),
      account: {
        id: user.id,
        email: user.email,
        emailVerified: Boolean(user.emailVerifiedAt),
        username: user.username,
        firstName: user.firstName,
        lastName: user.lastName,
        role: user.role,
        active: Boolean(user.active),
        hasPassword: user.passwordHash !== null,
        createdAt: user.createdAt as Date,
        lastLoginAt: (user.lastLoginAt as Date | null) ?? null,
      },
      profile: profile
        ? {
            displayName: (profile.displayName as string | null) ?? null,
            bio: (profile.bio as string | null) ?? null,
            company: (profile.company as string | null) ?? null,
            jobTitle: (profile.jobTitle as string | null) ?? null,
            website: (profile.website as string | null) ?? null,
            location: (profile.location as string | null) ?? null,
            dateOfBirth: (profile.dateOfBirth as number | null) ?? null,
            custom: profile.data ?? {},
          }
        : null,
      linkedAccounts: linked.map((row) => ({ provider: row.provider, providerAccountId: row.providerAccountId, email: row.email, linkedAt: row.createdAt as Date })),
      sessions,
      passkeys,
      activity: activityRows.slice(0, EXPORT_ACTIVITY_LIMIT).map((row) => ({
        action: row.action,
        createdAt: row.createdAt as Date,
        ip: row.ip,
        userAgent: row.userAgent,
        details: row.details,
      })),
      activityTruncated: activityRows.length > EXPORT_ACTIVITY_LIMIT,
    };
  }

  /** What the profile page's account cards need: whether the address is proven, whether a password guards changes. */
  async function cardsView(userId: string): Promise<{ emailVerified: boolean; hasPassword: boolean }> {
    const user = await owner(userId);
    return { emailVerified: Boolean(user.emailVerifiedAt), hasPassword: user.passwordHash !== null };
  }

  return {
    cardsView,
    requestEmailChange,
    confirmEmailChange,
    deleteOwnAccount,
    exportAccount,
    /** Resolves when every mail started so far has been handed over (tests, shutdown). */
    idle: background.idle,
  };
}

export type AccountLifecycleService = ReturnType<typeof createAccountLifecycleService>;
