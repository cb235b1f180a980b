import crypto from 'node:crypto';
import { promisify } from 'node:util';
import { Op, literal, type Sequelize } from 'sequelize';
import type { Logger } from 'pino';
import type { Config } from '../../config/config';
import type { Models } from '../../models';
import type { KeyValueStore, CounterState } from '../../store';
import { MemoryStore } from '../../store/memory-store';
import type { OtpLoginSettings } from '../../plugins/otp-login.plugin';
import type { MailOutbox } from '../operations/mail-outbox';
import type { SettingsService } from '../operations/settings.service';
import type { UserService } from '../accounts/user.service';
import { normalizeEmail } from '../accounts/user.service';
import { AppError } from '../../http/app-error';
import { createBackgroundWork } from '../operations/background-work';
import { transactionWithRetry } from '../../db/transaction-retry';
import type { AuthUser } from '../../sessions/auth-user';
import type { AuthUserRecords } from '../../sessions/auth-user-records';
import type { AccountThrottle, Reservation } from '../../credentials/account-throttle';
import { renderOtpEmail } from '../../mail/otp-email';
import type { EmailVerificationService } from '../accounts/email-verification.service';
import { subKey } from '../../credentials/sub-keys';

export const OTP_MESSAGES = {
  requested: 'If an account exists for this email, you will receive a verification code shortly.',
  invalid: 'Invalid or expired code',
  disabled: 'OTP login is not enabled',
  mailUnavailable: 'OTP login is not available: email delivery is not configured',
} as const;

const HOUR_SECONDS = 60 * 60;
const randomInt = promisify(crypto.randomInt) as (max: number) => Promise<number>;

/** Why a verification failed: for the activity log only; every client sees the same 401 shape. */
export type OtpFailureReason = 'no_code' | 'attempts_exhausted' | 'wrong_code' | 'already_used' | 'inactive' | 'registration_disabled';

export type OtpVerifyResult =
  | { ok: true; user: AuthUser; created: boolean; /** Deletes the code; false when a parallel use won. */ claim: () => Promise<boolean> }
  | { ok: false; reason: OtpFailureReason; attemptsRemaining: number; email: string; userId: string | null }
  /** The account throttle blocks the email (known or not): refused before any code is read, until `until` (epoch ms). */
  | { ok: false; reason: 'throttled'; retryAfterSeconds: number; until: number; email: string; userId: null };

/** The hourly per-email counter as rate-limit headers show it. */
export interface OtpRateState {
  limit: number;
  remaining: number;
  /** Epoch seconds when the window ends. */
  reset: number;
}

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/** The hourly count as the headers every code request answers with, allowed or refused. */
export function rateHeaders(rate: OtpRateState): Record<string, string> {
  return { 'X-RateLimit-Limit': String(rate.limit), 'X-RateLimit-Remaining': String(rate.remaining), 'X-RateLimit-Reset': String(rate.reset) };
}

/**
 * One-time codes by email (SPEC 2.5, CONTRACT 4). A code is a CSPRNG number of the configured length,
 * stored only as an HMAC keyed by the server secret and bound to its row, so a database copy does not
 * give the codes away. Every request stores a code, whether or not the email may sign in; only an
 * eligible one is mailed, so neither the request nor later guesses tell accounts apart.
 */
export function createOtpService(deps: {
  config: Config;
  sequelize: Sequelize;
  models: Models;
  authUsers: AuthUserRecords;
  store: KeyValueStore;
  mailer: Pick<MailOutbox, 'send' | 'isConfigured'>;
  settings: Pick<SettingsService, 'getSecuritySettings'>;
  users: Pick<UserService, 'signUp'>;
  /** The per-account throttle password sign-in uses: wrong codes count in the same counter. */
  throttle: AccountThrottle;
  /** A right code proves the address: verified, and a squatter's password cleared (CONTRACT 12). */
  verification: Pick<EmailVerificationService, 'proven'>;
  logger: Logger;
}) {
  const { sequelize, models, authUsers, store, mailer, users, throttle } = deps;
  const log = deps.logger.child({ component: 'otp' });
  const hmacKey = subKey(deps.config.jwtSecret, 'otpCodes');
  // Counts while the shared store is failing: limiting degrades to this instance, never to none.
  const fallbackCounter = new MemoryStore();
  const background = createBackgroundWork();

  /**
   * Whether an unknown email is mailed a code that can make it an account: the plugin's own switch and the
   * service-wide registration setting, which every sign-in method respects. (Verification also lets the
   * first user ever in, as registration does; with registration closed, that one registers by the form.)
   */
  async function registrationOpen(pluginAllows: boolean): Promise<boolean> {
    return pluginAllows && (await deps.settings.getSecuritySettings()).allowRegistration.value;
  }

  function hashCode(id: string, code: string): string {
    return crypto.createHmac('sha256', hmacKey).update(`${id}:${code}`).digest('hex');
  }

  function matches(stored: string, id: string, code: string): boolean {
    const expected = Buffer.from(hashCode(id, code), 'hex');
    const actual = Buffer.from(stored, 'hex');
    return actual.length === expected.length && crypto.timingSafeEqual(actual, expected);
  }

  async function generateCode(length: number): Promise<string> {
    return String(await randomInt(10 ** length)).padStart(length, '0');
  }

  /** Counts one request for the email in the shared store (every instance counts together). */
  async function countRequest(email: string, limit: number): Promise<OtpRateState> {
    const key = `otp:rate:${crypto.createHash('sha256').update(email).digest('hex')}`;
    let counter: CounterState;
    try {
      counter = await store.increment(key, HOUR_SECONDS);
    } catch (err) {
      log.warn({ err: { message: (err as Error).message } }, 'key-value store failed: OTP requests counted in this process only');
      counter = await fallbackCounter.increment(key, HOUR_SECONDS);
    }
    const rate = { limit, remaining: Math.max(0, limit - counter.count), reset: Math.ceil(counter.resetAt / 1000) };
    if (counter.count > limit) {
      const error = AppError.tooManyRequests((counter.resetAt - Date.now()) / 1000);
      throw new AppError(error.status, error.message, { headers: { ...error.options.headers, ...rateHeaders(rate) } });
    }
    return rate;
  }

  async function deliver(email: string, code: string, settings: OtpLoginSettings, expiresAt: Date): Promise<void> {
    try {
      await mailer.send({ to: email, ...renderOtpEmail(settings, { code }) }, { expiresAt });
    } catch (err) {
      log.error({ err: { message: (err as Error).message } }, 'could not send a one-time code');
    }
  }

  /**
   * Issues a code for the email: 503 while no mail service is configured, 429 past the hourly limit
   * (nothing stored, no mail). The new code voids older ones. Mail goes out after the answer, and only
   * to an active account, or to an unknown email while registration is open (registrationOpen).
   * `settings` are the plugin's as the request found it (its guard read them with the active flag).
   */
  async function requestCode(rawEmail: string, settings: OtpLoginSettings): Promise<{ expiresIn: number; rate: OtpRateState }> {
    const email = normalizeEmail(rawEmail);
    if (!(await mailer.isConfigured())) throw AppError.serviceUnavailable(OTP_MESSAGES.mailUnavailable);
    const rate = await countRequest(email, settings.rateLimitPerHour);

    // Both reads for every email, so an unknown address costs what a known one does.
    const [user, open] = await Promise.all([
      models.User.findOne({ attributes: ['id', 'active'], where: { email } }),
      registrationOpen(settings.allowNewUserRegistration),
    ]);
    const eligible = user ? user.active : open;
    const code = await generateCode(settings.codeLength);
    const id = crypto.randomUUID();
    const expiresIn = settings.codeExpiryMinutes * 60;
    await transactionWithRetry(sequelize, async (transaction) => {
      await models.OtpCode.destroy({ where: { userEmail: email }, transaction });
      await models.OtpCode.create({ id, userEmail: email, code: hashCode(id, code), expiresAt: nowSeconds() + expiresIn }, { transaction });
    });
    if (eligible) background.start(() => deliver(email, code, settings, new Date(Date.now() + expiresIn * 1000)));
    return { expiresIn, rate };
  }

  /**
   * Checks a code. Each check first takes one attempt in the per-account throttle (reserve, then judge), then
   * one of the code's own with a conditional UPDATE (`attempts < max`), so however many run at once, at most
   * the throttle's limit and maxAttempts are ever compared, and a spent code stays dead even for the right
   * value. The right code is claimed by deleting its row (`claim`, which the session step runs last): of
   * parallel checks exactly one deletes it. An unknown email gets an account only while the plugin allows
   * new users and registration is allowed (or it is the first user ever).
   *
   * Every compared code that does not sign in keeps its attempt, like a wrong password, so whatever
   * codeLength, maxAttempts and rateLimitPerHour say, an email gets at most the throttle's guesses per
   * window; while it is blocked no code is even read. A check that compared nothing gives its attempt back;
   * the right code lifts the throttle.
   */
  async function verify(rawEmail: string, code: string, settings: OtpLoginSettings): Promise<OtpVerifyResult> {
    const email = normalizeEmail(rawEmail);
    if (code.length !== settings.codeLength) throw AppError.validation({ code: `must be ${settings.codeLength} digits` });
    const attempt = await throttle.reserve(email);
    if (!attempt.ok) return { ok: false, reason: 'throttled', retryAfterSeconds: attempt.retryAfterSeconds, until: attempt.until, email, userId: null };
    try {
      return await judge(email, code, settings, attempt);
    } catch (err) {
      await attempt.succeeded().catch(() => undefined);
      throw err;
    }
  }

  async function judge(email: string, code: string, settings: OtpLoginSettings, attempt: Reservation): Promise<OtpVerifyResult> {
    /** Nothing compared: the attempt goes back. */
    const fail = async (reason: OtpFailureReason): Promise<OtpVerifyResult> => {
      await attempt.succeeded();
      return { ok: false, reason, attemptsRemaining: 0, email, userId: null };
    };
    /** A compared code that does not sign in: a guess like a wrong password. */
    const failGuess = async (reason: OtpFailureReason, attemptsRemaining = 0, userId: string | null = null): Promise<OtpVerifyResult> => {
      await attempt.failed();
      return { ok: false, reason, attemptsRemaining, email, userId };
    };

    const now = nowSeconds();
    const row = await models.OtpCode.findOne({ where: { userEmail: email, expiresAt: { [Op.gt]: now } }, order: [['createdAt', 'DESC']] });
    if (!row) return fail('no_code');
    const [counted] = await models.OtpCode.update(
      { attempts: literal('attempts + 1') as unknown as number },
      { where: { id: row.id, attempts: { [Op.lt]: settings.maxAttempts }, expiresAt: { [Op.gt]: now } } },
    );
    if (counted !== 1) return fail('attempts_exhausted');

    if (!matches(row.code, row.id, code)) {
      const after = await models.OtpCode.findByPk(row.id, { attributes: ['attempts'] });
      return failGuess('wrong_code', after ? Math.max(0, settings.maxAttempts - after.attempts) : 0);
    }
    let record = await authUsers.byEmail(email);
    let created = false;
    if (!record) {
      if (!settings.allowNewUserRegistration) return failGuess('registration_disabled');
      try {
        await users.signUp({ email });
        created = true;
      } catch (err) {
        if (err instanceof AppError && err.status === 403) return failGuess('registration_disabled');
        // Created meanwhile by another path (registration, OAuth): that account signs in.
        if (!(err instanceof AppError && err.status === 409)) throw err;
      }
      record = await authUsers.byEmail(email);
      if (!record) return failGuess('registration_disabled');
    }
    if (!record.active) return failGuess('inactive', 0, record.user.id);
    // Re-read after a change: clearing a squatter's password moves the token epoch on.
    if (!record.user.emailVerified && (await deps.verification.proven(record.user, 'otp')).changed) record = (await authUsers.byEmail(email)) ?? record;
    await throttle.clear(email);
    const claim = async () => (await models.OtpCode.destroy({ where: { id: row.id } })) === 1;
    return { ok: true, user: record.user, created, claim };
  }

  return {
    requestCode,
    verify,
    /** Resolves when every mail started so far has been handed over (tests, shutdown). */
    idle: background.idle,
  };
}

export type OtpService = ReturnType<typeof createOtpService>;
