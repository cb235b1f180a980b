import crypto from 'node:crypto';
import type { Sequelize } from 'sequelize';
import type { Logger } from 'pino';
import type { Config } from '../../config/config';
import type { Models } from '../../models';
import type { MailOutbox, RecordedMail } from '../operations/mail-outbox';
import type { EmailQuota } from '../operations/email-quota';
import type { SettingsService } from '../operations/settings.service';
import type { UserService } from '../accounts/user.service';
import { normalizeEmail } from '../accounts/user.service';
import { AppError } from '../../http/app-error';
import { createBackgroundWork } from '../operations/background-work';
import type { AuthUser } from '../../sessions/auth-user';
import type { AuthUserRecords } from '../../sessions/auth-user-records';
import { renderMagicLinkEmail } from '../../mail/magic-link-email';
import { transactionWithRetry } from '../../db/transaction-retry';
import type { EmailVerificationService } from '../accounts/email-verification.service';

/** SPEC 8: a magic link is valid for 15 minutes. */
export const MAGIC_LINK_TTL_SECONDS = 15 * 60;
export const MAGIC_LINK_VERIFY_PATH = '/auth/magic-link/verify';
export const MAGIC_LINK_MESSAGES = {
  notConfigured: 'Magic link sign-in is not configured',
  invalid: 'This sign-in link is invalid or has expired. Please ask for a new one.',
} as const;

const TOKEN_BYTES = 32;

/** Why a link was refused: for the activity log only; every click gets the same answer. */
export type MagicLinkFailureReason = 'unknown_token' | 'expired' | 'already_used' | 'revoked' | 'inactive' | 'registration_disabled';

export type MagicLinkResult =
  | { ok: true; user: AuthUser; created: boolean; /** Deletes the link; false when a parallel click won. */ claim: () => Promise<boolean> }
  | { ok: false; reason: MagicLinkFailureReason; email: string | null; userId: string | null };

/**
 * Magic-link sign-in (CONTRACT 4). A link carries 32 random bytes; only their HMAC-SHA256 under
 * EXTERNAL_AUTH_SECRET is stored (`auth_verification.value`), so a database copy holds no usable link.
 * The request path does the same work for every email (one user lookup, one settings read) and answers;
 * the row and the mail are made afterwards, and only for an email that may sign in. A link remembers the
 * user's token epoch, so everything that ends a user's tokens (logout-all, password reset, role change,
 * deactivation) ends their unused links too. An email has at most one live link: a new one voids the
 * older ones, as a new one-time code does.
 */
export function createMagicLinkService(deps: {
  config: Config;
  sequelize: Sequelize;
  models: Models;
  authUsers: AuthUserRecords;
  mailer: Pick<MailOutbox, 'isConfigured' | 'record' | 'attempt'>;
  settings: Pick<SettingsService, 'getSecuritySettings'>;
  users: Pick<UserService, 'signUp'>;
  /** Links per address (3 per 15 minutes, as reset mails): past it the request is answered the same, and no mail goes out. */
  mailsPerEmail: EmailQuota;
  logger: Logger;
  /** A used link proves the address: verified, and a squatter's password cleared (CONTRACT 12). */
  verification: Pick<EmailVerificationService, 'proven'>;
}) {
  const { config, sequelize, models, authUsers, mailer, settings, users } = deps;
  const log = deps.logger.child({ component: 'magic-link' });
  const secret = config.externalAuthSecret;
  const background = createBackgroundWork();

  function hashToken(token: string): string {
    return crypto.createHmac('sha256', secret ?? '').update(`magic-link\0${token}`).digest('hex');
  }

  /** Needs EXTERNAL_AUTH_SECRET and a configured mail service (SPEC 5.7); no admin toggle. */
  async function isAvailable(): Promise<boolean> {
    return secret !== undefined && (await mailer.isConfigured());
  }

  function linkFor(token: string, callbackURL: string | null): string {
    // Always BASE_URL: a forged Host / X-Forwarded-Host never reaches an emailed link.
    const query = new URLSearchParams({ token });
    if (callbackURL) query.set('callbackURL', callbackURL);
    return `${config.baseUrl}${MAGIC_LINK_VERIFY_PATH}?${query.toString()}`;
  }

  /** Stores a new link for the email and mails it. Runs after the answer; never throws. */
  async function issueAndSend(email: string, userEpoch: number, callbackURL: string | null): Promise<void> {
    try {
      const token = crypto.randomBytes(TOKEN_BYTES).toString('base64url');
      const expiresAt = new Date(Date.now() + MAGIC_LINK_TTL_SECONDS * 1000);
      const message = { to: email, ...renderMagicLinkEmail({ url: linkFor(token, callbackURL), expiresInMinutes: MAGIC_LINK_TTL_SECONDS / 60 }) };
      // The email's older links go in the same transaction: a mailbox read later, or a link left in an
      // older mail, no longer signs in once a newer one exists. The mail is recorded with the link it carries.
      const mail = await transactionWithRetry(sequelize, async (transaction): Promise<RecordedMail> => {
        await models.AuthVerification.destroy({ where: { identifier: email }, transaction });
        await models.AuthVerification.create({ id: crypto.randomUUID(), identifier: email, value: hashToken(token), userEpoch, expiresAt }, { transaction });
        return mailer.record(message, { expiresAt, transaction });
      });
      await mailer.attempt(mail);
    } catch (err) {
      log.error({ err: { message: (err as Error).message } }, 'could not issue a magic link');
    }
  }

  /**
   * POST /auth/sign-in/magic-link: 503 while unavailable; otherwise resolves the same way for every
   * email. An active account gets a link; an unknown email only while registration is allowed; a
   * deactivated account never.
   */
  async function requestLink(rawEmail: string, callbackURL: string | null): Promise<void> {
    if (!(await isAvailable())) throw AppError.serviceUnavailable(MAGIC_LINK_MESSAGES.notConfigured);
    const email = normalizeEmail(rawEmail);
    // Counted for every address, known or not, before anything else: the answer and its time say nothing.
    const quota = await deps.mailsPerEmail.take(email);
    const [user, security] = await Promise.all([
      models.User.findOne({ attributes: ['id', 'active', 'tokenEpoch'], where: { email } }),
      settings.getSecuritySettings(),
    ]);
    const eligible = user ? user.active : security.allowRegistration.value;
    if (!eligible || !quota.allowed) return;
    background.start(() => issueAndSend(email, user?.tokenEpoch ?? 0, callbackURL));
  }

  /**
   * Uses a link once. The row is claimed by deleting it (`claim`, which the session step runs after the
   * sign-in's last database read, so a sign-in that fails on the way leaves the link usable): of any
   * number of parallel clicks exactly one deletes it. The user must be active and on the epoch the link
   * was issued under; an unknown email gets an account (viewer; the first user ever admin) only while
   * registration is allowed.
   */
  async function consume(token: string): Promise<MagicLinkResult> {
    const fail = (reason: MagicLinkFailureReason, email: string | null = null, userId: string | null = null): MagicLinkResult => ({
      ok: false, reason, email, userId,
    });
    if (secret === undefined) throw AppError.serviceUnavailable(MAGIC_LINK_MESSAGES.notConfigured);
    const row = await models.AuthVerification.findOne({ where: { value: hashToken(token) } });
    if (!row) return fail('unknown_token');
    const claim = async () => (await models.AuthVerification.destroy({ where: { id: row.id } })) === 1;
    if (row.expiresAt.getTime() <= Date.now()) {
      await claim();
      return fail('expired', row.identifier);
    }

    const email = row.identifier;
    let record = await authUsers.byEmail(email);
    let created = false;
    if (!record) {
      try {
        await users.signUp({ email });
        created = true;
      } catch (err) {
        if (err instanceof AppError && err.status === 403) return fail('registration_disabled', email);
        // Created meanwhile by another path (registration, OAuth): that account signs in.
        if (!(err instanceof AppError && err.status === 409)) throw err;
      }
      record = await authUsers.byEmail(email);
      if (!record) return fail('registration_disabled', email);
    }
    if (!record.active) return fail('inactive', email, record.user.id);
    if (record.user.tokenEpoch !== row.userEpoch) return fail('revoked', email, record.user.id);
    // The link proves the address (CONTRACT 12); re-read after a change: clearing a squatter's password moves the epoch on.
    if (!record.user.emailVerified && (await deps.verification.proven(record.user, 'magic_link')).changed) record = (await authUsers.byEmail(email)) ?? record;
    return { ok: true, user: record.user, created, claim };
  }

  return {
    isAvailable,
    requestLink,
    consume,
    /** Resolves when every link started so far has been stored and handed to the mailer (tests, shutdown). */
    idle: background.idle,
  };
}

export type MagicLinkService = ReturnType<typeof createMagicLinkService>;
