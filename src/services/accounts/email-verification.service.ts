import { Op, type Sequelize } from 'sequelize';
import type { Logger } from 'pino';
import type { Models } from '../../models';
import type { KeyValueStore } from '../../store';
import type { RequestContext } from '../../http/request-context';
import type { TokenService } from '../../sessions/token.service';
import type { AuthUser } from '../../sessions/auth-user';
import type { ActivityService } from '../operations/activity.service';
import type { MailOutbox } from '../operations/mail-outbox';
import type { SettingsService } from '../operations/settings.service';
import { EMAIL_LINK_TTL_SECONDS, type EmailLinks } from './email-links';
import { createBackgroundWork } from '../operations/background-work';
import { transactionWithRetry } from '../../db/transaction-retry';
import { renderAccountLinkEmail } from '../../mail/account-link-email';
import type { CredentialSet } from '../security/credential-set/credential-set';
import type { Keep } from '../security/credential-set/credential-kinds';
import type { Events } from '../operations/webhooks.service';
import { changeWithEvent } from '../operations/event-transaction';

/** A refused password sign-in mails a new link at most once per this many seconds (CONTRACT 12). */
export const SIGN_IN_RESEND_SECONDS = 15 * 60;
/** "Send the link again" from the profile page or the API: at most one mail a minute. */
export const RESEND_INTERVAL_SECONDS = 60;

export const EMAIL_VERIFICATION_MESSAGES = {
  notVerified: 'Email not verified',
  resent: 'If your address is not verified yet, a new link is on its way.',
  invalid: 'This link is invalid, was already used or has expired.',
} as const;

/** How an address was proven: the link, or a sign-in that only its owner can complete. */
export type ProofOfAddress = 'link' | 'otp' | 'magic_link' | 'admin' | string;

const NO_CONTEXT: RequestContext = { ip: null, userAgent: null };

/**
 * Verified addresses (CONTRACT 12): the link registration mails, resends, the `requireVerifiedEmail` rule
 * of password sign-in, and the squatter rule. An address proven by someone who can read its mail (a code,
 * a magic link, a provider's verified address) marks the account verified; if it was unverified (it signed
 * itself up, CONTRACT 18) and had a password, whoever set it never proved the address: every credential of
 * the account ends, so nothing a squatter added survives the owner's arrival.
 */
export function createEmailVerificationService(deps: {
  sequelize: Sequelize;
  models: Models;
  store: KeyValueStore;
  mailer: Pick<MailOutbox, 'send' | 'isConfigured'>;
  links: EmailLinks;
  settings: Pick<SettingsService, 'getSecuritySettings'>;
  tokens: Pick<TokenService, 'userChanged'>;
  /** The squatter rule ends the account's credentials through the one table (CONTRACT 18). */
  credentials: Pick<CredentialSet, 'end'>;
  activity: ActivityService;
  logger: Logger;
  /** CONTRACT 16: events recorded with the change. */
  events: Pick<Events, 'recordForUser' | 'listens'>;
}) {
  const { sequelize, models, store, mailer, links, settings, tokens, credentials, activity, events } = deps;
  const log = deps.logger.child({ component: 'email-verification' });
  const background = createBackgroundWork();

  /** True when no link went to the user in the last `seconds` (and claims the window); a failing store lets the mail go. */
  async function mayMail(userId: string, seconds: number): Promise<boolean> {
    try {
      return await store.setIfAbsent(`email-verify:sent:${userId}`, '1', seconds);
    } catch (err) {
      log.warn({ err: (err as Error).message }, 'key-value store unavailable: verification mail not limited');
      return true;
    }
  }

  /** Stores a new link and mails it, after the answer; never throws. */
  function mailLink(user: { id: string; email: string }, minIntervalSeconds = 0): void {
    background.start(async () => {
      try {
        if (minIntervalSeconds > 0 && !(await mayMail(user.id, minIntervalSeconds))) return;
        if (!(await mailer.isConfigured())) {
          log.warn({ userId: user.id }, 'no mail service is configured: no verification link sent');
          return;
        }
        const url = await links.create(user.id, 'verify');
        const expiresAt = new Date(Date.now() + EMAIL_LINK_TTL_SECONDS * 1000);
        await mailer.send({ to: user.email, ...renderAccountLinkEmail('verify', { url, email: user.email, expiresInHours: EMAIL_LINK_TTL_SECONDS / 3600 }) }, { expiresAt });
      } catch (err) {
        log.error({ err: (err as Error).message, userId: user.id }, 'could not send a verification link');
      }
    });
  }

  /** After a password registration (JSON or form): the first link. */
  function registered(user: { id: string; email: string }): void {
    mailLink(user);
  }

  /** POST /auth/verify-email/resend: a new link unless the address is verified already or one went out within a minute. */
  async function resend(userId: string): Promise<void> {
    const user = await models.User.findByPk(userId, { attributes: ['id', 'email', 'emailVerifiedAt'] });
    if (!user || user.emailVerifiedAt) return;
    mailLink(user, RESEND_INTERVAL_SECONDS);
  }

  /**
   * Whether a password sign-in of this user may go on: always while `requireVerifiedEmail` is off or the
   * address is verified; otherwise no, and a new link is mailed (at most once per 15 minutes).
   */
  async function passwordSignInAllowed(user: Pick<AuthUser, 'id' | 'email' | 'emailVerified'>): Promise<boolean> {
    if (user.emailVerified) return true;
    const { requireVerifiedEmail } = await settings.getSecuritySettings();
    if (!requireVerifiedEmail.value) return true;
    mailLink(user, SIGN_IN_RESEND_SECONDS);
    return false;
  }

  /**
   * Marks the address proven. An unverified account (self-registered, never proven) loses, in the same
   * transaction, every credential whoever signed it up could have added: password, sessions, API keys, passkeys,
   * second factors and linked accounts but the one proving the address now (`keep`): the squatter rule of
   * CONTRACT 18, with the activity row `user.unverified_password_cleared`. Accounts vouched for (made by an admin,
   * the seeder, an import; the first user) are only marked verified. Answers whether anything changed (the
   * caller must then re-read the user: the token epoch moved on).
   */
  async function proven(
    user: { id: string; email: string },
    via: ProofOfAddress,
    context: RequestContext = NO_CONTEXT,
    keep: Pick<Keep, 'linkedAccount'> = {},
  ): Promise<{ changed: boolean; passwordCleared: boolean }> {
    const now = new Date();
    const outcome = await transactionWithRetry(sequelize, async (transaction) => {
      const [squatted] = await models.User.update(
        { emailVerifiedAt: now },
        { where: { id: user.id, emailVerifiedAt: null, selfRegistered: true, passwordHash: { [Op.ne]: null } }, transaction },
      );
      if (squatted === 1) {
        await credentials.end('address-proven-on-unverified', user.id, { transaction, keep });
        // Verified all the same: the event fires as for any other account.
        await events.recordForUser('user.email_verified', user.id, { via }, { transaction });
        return 'cleared' as const;
      }
      const [verified] = await models.User.update({ emailVerifiedAt: now }, { where: { id: user.id, emailVerifiedAt: null }, transaction });
      if (verified === 1) await events.recordForUser('user.email_verified', user.id, { via }, { transaction });
      return verified === 1 ? ('verified' as const) : ('unchanged' as const);
    });
    if (outcome === 'unchanged') return { changed: false, passwordCleared: false };
    // The verification cache holds emailVerified (a revocation voids it after commit itself).
    if (outcome === 'verified') await tokens.userChanged(user.id);
    await activity.record({ action: 'user.email_verified', userId: user.id, email: user.email, details: { via } }, context);
    if (outcome === 'cleared') {
      await activity.record({ action: 'user.unverified_password_cleared', userId: user.id, email: user.email, details: { via } }, context);
    }
    return { changed: true, passwordCleared: outcome === 'cleared' };
  }

  /**
   * GET /auth/verify-email: uses the link once and marks the address verified. The link confirms the
   * registration that set the password, so it never clears one (the mail tells a stranger not to click).
   * False for a link that is unknown, tampered, used or expired (one answer for all).
   */
  async function verifyLink(token: string, context: RequestContext): Promise<boolean> {
    const row = await links.claim(token, 'verify');
    if (!row) return false;
    const user = await models.User.findByPk(row.userId, { attributes: ['id', 'email', 'active'] });
    if (!user || !user.active) return false;
    const verified = await changeWithEvent(
      { sequelize, events },
      'user.email_verified',
      async (transaction) => (await models.User.update({ emailVerifiedAt: new Date() }, { where: { id: user.id, emailVerifiedAt: null }, transaction }))[0],
      async (count, transaction) => {
        if (count === 1) await events.recordForUser('user.email_verified', user.id, { via: 'link' }, { transaction });
      },
    );
    if (verified === 1) {
      await tokens.userChanged(user.id);
      await activity.record({ action: 'user.email_verified', userId: user.id, email: user.email, details: { via: 'link' } }, context);
    }
    return true;
  }

  return {
    registered,
    resend,
    passwordSignInAllowed,
    proven,
    verifyLink,
    /** Resolves when every mail started so far has been handed over (tests, shutdown). */
    idle: background.idle,
  };
}

export type EmailVerificationService = ReturnType<typeof createEmailVerificationService>;
