import crypto from 'node:crypto';
import { Op, type Sequelize, type Transaction } from 'sequelize';
import type { Config } from '../../config/config';
import type { Models } from '../../models';
import type { AdminAudit, RequestContext } from '../../http/request-context';
import { AppError } from '../../http/app-error';
import type { TokenService } from '../../sessions/token.service';
import { checkTotp, createRecoveryCodeHasher, createSecretBox, newTotpSecret, otpauthUrl } from '../../credentials/totp';
import type { ActivityService } from '../operations/activity.service';
import type { SecurityNotices } from './security-notices';
import type { SettingsService } from '../operations/settings.service';
import type { AccountThrottle } from '../../credentials/account-throttle';
import { normalizeEmail } from '../accounts/user.service';
import type { CredentialSet } from './credential-set/credential-set';
import type { Events } from '../operations/webhooks.service';

export const TWO_FACTOR_MESSAGES = {
  alreadyOn: 'Two-factor authentication is already on. Turn it off first to set it up again.',
  notOn: 'Two-factor authentication is not on',
  noSetup: 'Start the two-factor setup first',
  invalidCode: 'Invalid code',
  userNotFound: 'User not found',
} as const;

/** Who a change is about (the signed-in user, or the user an admin resets). */
export interface Owner {
  id: string;
  email: string;
}

/** The user enrolling, and the session (`sid`) the enrolment belongs to: no other session sees or confirms it. */
export interface Enrolling extends Owner {
  session: string;
}

/** The second factor of a user as pages and /auth/me show it. */
export interface TwoFactorStatus {
  enabled: boolean;
  /** A setup was started and not yet confirmed. */
  pending: boolean;
  recoveryCodesLeft: number;
}

/**
 * TOTP and recovery codes (CONTRACT 9): enrolment (setup, then confirm with a code), the checks a
 * second step and a step-up make, new recovery codes, turning it off, an admin's reset, and the policy
 * that holds some roles to enrolment. Secrets are sealed at rest; a code is accepted once (the last used
 * time step is kept per user and moved by a conditional UPDATE, so of two parallel uses of one code
 * exactly one wins); recovery codes are kept as HMACs and spent by a conditional UPDATE likewise.
 */
export function createTwoFactorService(deps: {
  config: Pick<Config, 'jwtSecret' | 'appName'>;
  sequelize: Sequelize;
  models: Models;
  tokens: Pick<TokenService, 'userChanged'>;
  /** An unverified account enrols nothing; the admin reset is a row of the credential table (CONTRACT 18). */
  credentials: Pick<CredentialSet, 'end' | 'assertMayAdd'>;
  activity: ActivityService;
  notices: Pick<SecurityNotices, 'send'>;
  settings: Pick<SettingsService, 'getSecuritySettings'>;
  /** The per-account throttle every guess reserves an attempt in (here: enrolment confirmations). */
  throttle: Pick<AccountThrottle, 'reserve'>;
  /** CONTRACT 16: user.two_factor_enabled and user.two_factor_disabled, each in the transaction of its change. */
  events: Pick<Events, 'recordForUser'>;
}) {
  const { config, sequelize, models, tokens, credentials, activity, notices, settings, throttle, events } = deps;
  const box = createSecretBox(config.jwtSecret);
  const recoveryCodes = createRecoveryCodeHasher(config.jwtSecret);

  const row = (userId: string) => models.TwoFactor.findByPk(userId);
  // A pending secret is sealed bound to the user and the session that began it: opened by any other session
  // it is nothing at all, so that session gets the answers of "no setup started".
  const pendingBinding = (owner: Enrolling) => `${owner.id}:pending:${owner.session}`;

  /** Whether the user has a confirmed TOTP (the one kind of second factor this service keeps). */
  async function enabled(userId: string): Promise<boolean> {
    const found = await row(userId);
    return Boolean(found?.enabledAt && found.secret);
  }

  async function status(userId: string): Promise<TwoFactorStatus> {
    const [found, left] = await Promise.all([row(userId), models.RecoveryCode.count({ where: { userId, usedAt: null } })]);
    const on = Boolean(found?.enabledAt && found.secret);
    return { enabled: on, pending: !on && Boolean(found?.pendingSecret), recoveryCodesLeft: on ? left : 0 };
  }

  /** The secret and otpauth URL of a started, unconfirmed setup (the enrolment page draws it again), or null. */
  async function pendingSetup(owner: Enrolling): Promise<{ secret: string; otpauthUrl: string } | null> {
    const found = await row(owner.id);
    const secret = found && !found.enabledAt && found.pendingSecret ? box.open(found.pendingSecret, pendingBinding(owner)) : null;
    return secret ? { secret, otpauthUrl: otpauthUrl(config.appName, owner.email, secret) } : null;
  }

  /** Starts enrolment for this session: a new secret, kept sealed as pending until a code confirms it (another session's pending one is replaced). */
  async function beginSetup(owner: Enrolling): Promise<{ secret: string; otpauthUrl: string }> {
    await credentials.assertMayAdd(owner.id);
    const found = await row(owner.id);
    if (found?.enabledAt) throw AppError.conflict(TWO_FACTOR_MESSAGES.alreadyOn);
    const secret = newTotpSecret();
    const sealed = box.seal(secret, pendingBinding(owner));
    if (found) await found.update({ pendingSecret: sealed });
    else await models.TwoFactor.create({ userId: owner.id, secret: null, pendingSecret: sealed, enabledAt: null, lastTimeStep: null });
    return { secret, otpauthUrl: otpauthUrl(config.appName, owner.email, secret) };
  }

  /** Replaces the user's recovery codes with a new set inside the transaction; answers the codes, shown this once. */
  async function replaceRecoveryCodes(userId: string, transaction: Transaction): Promise<string[]> {
    const { codes, hashes } = recoveryCodes.generate();
    await models.RecoveryCode.destroy({ where: { userId }, transaction });
    const createdAt = new Date();
    await models.RecoveryCode.bulkCreate(hashes.map((codeHash) => ({ id: crypto.randomUUID(), userId, codeHash, usedAt: null, createdAt })), { transaction });
    return codes;
  }

  /**
   * Completes this session's enrolment when the code is right for its pending secret; answers the ten
   * recovery codes. The code is a guess like any other: an attempt is reserved in the account throttle
   * before it is compared (parallel guesses never judge more than the limit), kept when wrong.
   */
  async function confirm(owner: Enrolling, code: string, context: RequestContext): Promise<string[]> {
    const found = await row(owner.id);
    if (found?.enabledAt) throw AppError.conflict(TWO_FACTOR_MESSAGES.alreadyOn);
    const pending = found?.pendingSecret ?? null;
    const secret = pending ? box.open(pending, pendingBinding(owner)) : null;
    if (!found || !pending || !secret) throw AppError.badRequest(TWO_FACTOR_MESSAGES.noSetup);
    const attempt = await throttle.reserve(normalizeEmail(owner.email));
    if (!attempt.ok) throw AppError.tooManyRequests(attempt.retryAfterSeconds);
    const timeStep = await checkTotp(secret, code, null);
    if (timeStep === null) {
      await attempt.failed();
      throw AppError.badRequest(TWO_FACTOR_MESSAGES.invalidCode, { errors: { code: TWO_FACTOR_MESSAGES.invalidCode } });
    }
    await attempt.succeeded();
    const codes = await sequelize.transaction(async (transaction) => {
      // Conditional on the pending secret just checked: two parallel confirmations enrol once. Sealed again
      // bound to the user alone: the enabled secret serves every session.
      const [changed] = await models.TwoFactor.update(
        { secret: box.seal(secret, owner.id), pendingSecret: null, enabledAt: new Date(), lastTimeStep: timeStep },
        { where: { userId: owner.id, pendingSecret: pending, enabledAt: null }, transaction },
      );
      if (changed !== 1) throw AppError.conflict(TWO_FACTOR_MESSAGES.alreadyOn);
      await events.recordForUser('user.two_factor_enabled', owner.id, { method: 'totp' }, { transaction });
      return replaceRecoveryCodes(owner.id, transaction);
    });
    // Cached verifications carry twoFactorEnabled: void them (the sign-in read is where it comes from).
    await tokens.userChanged(owner.id);
    await activity.record({ action: 'user.2fa_enabled', userId: owner.id, email: owner.email, details: { method: 'totp' } }, context);
    notify(owner.email, 'Two-factor authentication turned on', 'Two-factor authentication was turned on for your account: signing in now also asks for a code from your authenticator app.', context);
    return codes;
  }

  /** Whether the code is right for the user's TOTP now and newer than the last one accepted; spends its time step. */
  async function verifyTotp(userId: string, code: string): Promise<boolean> {
    const found = await row(userId);
    const secret = found?.enabledAt && found.secret ? box.open(found.secret, userId) : null;
    if (!found || !secret) return false;
    const timeStep = await checkTotp(secret, code, found.lastTimeStep);
    if (timeStep === null) return false;
    const [changed] = await models.TwoFactor.update(
      { lastTimeStep: timeStep },
      { where: { userId, [Op.or]: [{ lastTimeStep: null }, { lastTimeStep: { [Op.lt]: timeStep } }] } },
    );
    return changed === 1;
  }

  /** Whether the code is one of the user's unused recovery codes; spends it. */
  async function useRecoveryCode(userId: string, code: string): Promise<boolean> {
    if (code.length > 64 || !(await enabled(userId))) return false;
    const codeHash = recoveryCodes.hash(code);
    const [changed] = await models.RecoveryCode.update({ usedAt: new Date() }, { where: { userId, codeHash, usedAt: null } });
    return changed >= 1;
  }

  /** A new set of recovery codes; the old set stops working. */
  async function regenerateRecoveryCodes(owner: Owner, context: RequestContext): Promise<string[]> {
    if (!(await enabled(owner.id))) throw AppError.badRequest(TWO_FACTOR_MESSAGES.notOn);
    const codes = await sequelize.transaction((transaction) => replaceRecoveryCodes(owner.id, transaction));
    await activity.record({ action: 'user.recovery_codes_regenerated', userId: owner.id, email: owner.email }, context);
    return codes;
  }

  /** The owner turns their second factor off (a step-up route); `user.two_factor_disabled` is recorded with the removal. */
  async function disable(owner: Owner, context: RequestContext): Promise<void> {
    if (!(await enabled(owner.id))) throw AppError.badRequest(TWO_FACTOR_MESSAGES.notOn);
    await sequelize.transaction(async (transaction) => {
      await models.RecoveryCode.destroy({ where: { userId: owner.id }, transaction });
      // Of two parallel disables, the one that removed the row fires the event.
      if ((await models.TwoFactor.destroy({ where: { userId: owner.id }, transaction })) > 0) {
        await events.recordForUser('user.two_factor_disabled', owner.id, {}, { transaction });
      }
    });
    await tokens.userChanged(owner.id);
    await activity.record({ action: 'user.2fa_disabled', userId: owner.id, email: owner.email }, context);
    notify(owner.email, 'Two-factor authentication turned off', 'Two-factor authentication was turned off for your account: signing in no longer asks for a code.', context);
  }

  /**
   * An admin removes a user's TOTP and recovery codes (a lost phone), ends every session of the user (a
   * thief signed in with the second factor must not stay), records `user.2fa_reset` and mails the user.
   */
  async function reset(userId: string, audit: AdminAudit): Promise<void> {
    const user = await models.User.findByPk(userId);
    if (!user) throw AppError.notFound(TWO_FACTOR_MESSAGES.userNotFound);
    // The credential table's row: second factors and sessions end, and the owner is mailed after the commit.
    const ended = await credentials.end('admin-two-factor-reset', userId, { owner: { email: user.email, context: audit.context } });
    const details = { targetUserId: userId, targetEmail: user.email, hadSecondFactor: (ended['second-factors'] ?? 0) > 0 };
    await activity.record({ action: 'user.2fa_reset', userId: audit.actor.id, email: audit.actor.email, details }, audit.context);
  }

  function notify(to: string, subject: string, summary: string, context: RequestContext): void {
    notices.send(to, {
      subject,
      summary,
      context,
      advice: 'If this was not you, change your password at once, review your sessions on your profile, and contact an administrator.',
    });
  }

  /** Whether the policy (`requireTwoFactorRoles`) covers the role. */
  async function requiredFor(role: string): Promise<boolean> {
    const { requireTwoFactorRoles } = await settings.getSecuritySettings();
    return (requireTwoFactorRoles.value as readonly string[]).includes(role);
  }

  /** Whether the user is held to enrolment: the policy covers their role and they have no second factor yet. */
  async function mustEnrol(user: { id: string; role: string }): Promise<boolean> {
    return (await requiredFor(user.role)) && !(await enabled(user.id));
  }

  /**
   * The kinds this service adds to the second step's registry (src/sign-in/second-factor.ts, matched by
   * shape: services sit below sign-in): `totp` answers `code`, `recovery` answers `recoveryCode` and only
   * backs TOTP up.
   */
  function secondFactorKinds() {
    return [
      { name: 'totp', field: 'code', standalone: true, enrolled: enabled, verify: (userId: string, answer: unknown) => (typeof answer === 'string' ? verifyTotp(userId, answer) : Promise.resolve(false)) },
      {
        name: 'recovery', field: 'recoveryCode', standalone: false,
        enrolled: async (userId: string) => (await models.RecoveryCode.count({ where: { userId, usedAt: null } })) > 0,
        verify: (userId: string, answer: unknown) => (typeof answer === 'string' ? useRecoveryCode(userId, answer) : Promise.resolve(false)),
      },
    ];
  }

  return { secondFactorKinds, enabled, status, pendingSetup, beginSetup, confirm, verifyTotp, useRecoveryCode, regenerateRecoveryCodes, disable, reset, requiredFor, mustEnrol };
}

export type TwoFactorService = ReturnType<typeof createTwoFactorService>;
