import type { Logger } from 'pino';
import type { Models } from '../models';
import type { AuthUser } from '../sessions/auth-user';
import type { AuthUserRecord, AuthUserRecords } from '../sessions/auth-user-records';
import type { PasswordService } from '../credentials/password.service';
import { normalizeEmail } from '../services/accounts/user.service';
import type { PasswordCheckFailure, PasswordChecker } from '../credentials/password-check';
import type { EmailVerificationService } from '../services/accounts/email-verification.service';
import type { DeviceCookies } from './device-cookies';
import { hashQueueFull } from '../credentials/hash-queue';
import type { AppError } from '../http/app-error';

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
  passwords: Pick<PasswordService, 'hash' | 'admits'>;
  checkPassword: PasswordChecker;
  /** Only after the right password: whether an unverified address may sign in (and its new link). */
  verification: Pick<EmailVerificationService, 'passwordSignInAllowed'>;
  devices: Pick<DeviceCookies, 'deviceOf'>;
  logger: Logger;
}) {
  const { models, authUsers, passwords, checkPassword, devices, logger } = deps;

  async function upgradeHash(record: AuthUserRecord, password: string): Promise<boolean> {
    try {
      // The password was just proved: the upgrade waits in the priority lane.
      const fresh = await passwords.hash(password, 'known');
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

  /** The 429 (with Retry-After) when the hashing queue's lane for this browser is full now, or null when it would be taken. */
  function laneRefusal(device: string | null): AppError | null {
    const admitted = passwords.admits(device ? 'known' : 'open');
    return admitted.ok ? null : hashQueueFull(admitted.retryAfterSeconds);
  }

  /**
   * The same, from what a request carries (`deviceCookie`: what the browser sent as its device cookie): one HMAC and
   * a look at the queue, no read. The sign-in route asks it before its own reads (password-admission.ts).
   */
  function refusal(rawEmail: string, deviceCookie?: unknown): AppError | null {
    const email = normalizeEmail(rawEmail);
    return laneRefusal(devices.deviceOf(deviceCookie, email));
  }

  /**
   * `deviceCookie`: what the browser sent as its device cookie, if anything. Whether the hashing queue takes this
   * sign-in's lane is asked first, before any read: under a flood an unknown browser is refused for the cost of a
   * request (429 with Retry-After), never of a hash or a query.
   */
  async function check(rawEmail: string, password: string, deviceCookie?: unknown): Promise<PasswordLoginResult> {
    const email = normalizeEmail(rawEmail);
    const device = devices.deviceOf(deviceCookie, email);
    const refused = laneRefusal(device);
    if (refused) throw refused;
    const record = await authUsers.byEmail(email);
    const userId = record?.user.id ?? null;
    const result = await checkPassword(email, password, record, { device });
    if (!result.ok) return { ...result, email, userId };
    // Only a stored hash can match, so a success always has its record.
    const matched = record as AuthUserRecord;
    const passwordRehashed = result.needsRehash ? await upgradeHash(matched, password) : false;
    if (!(await deps.verification.passwordSignInAllowed(matched.user))) return { ok: false, reason: 'email_not_verified', email, userId: matched.user.id };
    return { ok: true, user: matched.user, passwordRehashed };
  }

  return { check, refusal };
}

export type PasswordLogin = ReturnType<typeof createPasswordLogin>;
