import type { Models } from '../models';
import type { RequestContext } from '../http/request-context';
import { AppError } from '../http/app-error';
import type { PasswordChecker } from '../credentials/password-check';
import type { AccountThrottle } from '../credentials/account-throttle';
import type { SignInSession } from '../sessions/token.service';
import type { ActivityService } from './activity.service';
import type { TwoFactorService } from './two-factor.service';

export const STEP_UP_PROOF_MESSAGES = {
  wrongPassword: 'is not your password',
  wrongCode: 'is not the code your app shows',
  noPassword: 'Your account has no password: confirm with a code, or sign in again',
  noTotp: 'Two-factor authentication is not on: confirm with your password, or sign in again',
  sessionEnded: 'Authentication required',
} as const;

/** What a step-up proves with: the password, or a code of the user's TOTP. */
export type StepUpProof = { password: string; code?: undefined } | { code: string; password?: undefined };

/**
 * Step-up (CONTRACT 9): a signed-in user proves it is them again, and their session gets a new `auth_time`.
 * The password goes through the one throttled password check; a code through the TOTP check (spent
 * once, like at sign-in), its failures counted in the same per-account throttle. The answer is the
 * session to issue a token for: the same `sid` and absolute end, `auth_time` now.
 */
export function createStepUpService(deps: {
  models: Models;
  checkPassword: PasswordChecker;
  throttle: AccountThrottle;
  twoFactor: Pick<TwoFactorService, 'enabled' | 'verifyTotp'>;
  activity: ActivityService;
}) {
  const { models, checkPassword, throttle, twoFactor, activity } = deps;

  /** What the prompt offers the user. */
  async function options(userId: string): Promise<{ hasPassword: boolean; hasTotp: boolean }> {
    const user = await models.User.findByPk(userId, { attributes: ['id', 'passwordHash'] });
    return { hasPassword: Boolean(user?.passwordHash), hasTotp: await twoFactor.enabled(userId) };
  }

  async function checkProof(user: { id: string; email: string; passwordHash: string | null; active: boolean }, proof: StepUpProof): Promise<void> {
    if (proof.password !== undefined) {
      if (!user.passwordHash) throw AppError.badRequest(STEP_UP_PROOF_MESSAGES.noPassword, { errors: { password: STEP_UP_PROOF_MESSAGES.noPassword } });
      const result = await checkPassword(user.email, proof.password, user);
      if (!result.ok && result.reason === 'throttled') throw AppError.tooManyRequests(result.retryAfterSeconds);
      if (!result.ok) throw AppError.validation({ password: STEP_UP_PROOF_MESSAGES.wrongPassword });
      return;
    }
    if (!(await twoFactor.enabled(user.id))) throw AppError.badRequest(STEP_UP_PROOF_MESSAGES.noTotp, { errors: { code: STEP_UP_PROOF_MESSAGES.noTotp } });
    const allowed = await throttle.check(user.email);
    if (!allowed.allowed) throw AppError.tooManyRequests(allowed.retryAfterSeconds);
    if (!(await twoFactor.verifyTotp(user.id, proof.code))) {
      await throttle.recordFailure(user.email);
      throw AppError.validation({ code: STEP_UP_PROOF_MESSAGES.wrongCode });
    }
  }

  /** Checks the proof; answers the session (same sid and end, auth_time now) for the renewed token. */
  async function prove(userId: string, sid: string | undefined, proof: StepUpProof, context: RequestContext): Promise<SignInSession> {
    const [user, session] = await Promise.all([models.User.findByPk(userId), sid ? models.Session.findByPk(sid) : null]);
    if (!user || !user.active) throw AppError.unauthorized(STEP_UP_PROOF_MESSAGES.sessionEnded);
    await checkProof(user, proof);
    // A token without a live session of this user (ended meanwhile, or older than sessions) cannot be renewed.
    if (!session || session.userId !== userId || session.revokedAt || session.expiresAt.getTime() <= Date.now()) {
      throw AppError.unauthorized(STEP_UP_PROOF_MESSAGES.sessionEnded);
    }
    await activity.record({ action: 'auth.step_up', userId, email: user.email, details: { method: proof.password !== undefined ? 'password' : 'totp' } }, context);
    return { sid: session.id, authTime: Math.floor(Date.now() / 1000), expiresAt: Math.floor(session.expiresAt.getTime() / 1000) };
  }

  return { options, prove };
}

export type StepUpService = ReturnType<typeof createStepUpService>;
