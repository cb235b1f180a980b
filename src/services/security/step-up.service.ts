import type { Models } from '../../models';
import type { RequestContext } from '../../http/request-context';
import { AppError } from '../../http/app-error';
import type { PasswordChecker } from '../../credentials/password-check';
import type { AccountThrottle } from '../../credentials/account-throttle';
import type { SignInSession } from '../../sessions/token.service';
import type { ActivityService } from '../operations/activity.service';
import { normalizeEmail } from '../accounts/user.service';

export const STEP_UP_PROOF_MESSAGES = {
  wrongPassword: 'is not your password',
  wrongCode: 'is not the code your app shows',
  wrongRecoveryCode: 'is not one of your unused recovery codes',
  wrongPasskey: 'could not be confirmed with your passkey',
  noPassword: 'Your account has no password: confirm with a code, or sign in again',
  secondFactorNeeded: 'Your account has two-factor authentication: confirm with a code from your app, a recovery code or a passkey, not your password alone',
  noPasskey: 'You have no passkey to confirm with',
  noSecondFactor: 'Two-factor authentication is not on: confirm with your password, or sign in again',
  sessionEnded: 'Authentication required',
} as const;

/** The fields a second-factor proof may come in, each judged by its kind (`totp`, `recovery`, `passkey`). */
export const SECOND_FACTOR_PROOF_FIELDS = ['code', 'recoveryCode', 'passkey'] as const;
type ProofField = (typeof SECOND_FACTOR_PROOF_FIELDS)[number];

/** What a step-up proves with: the password, or one second-factor answer. */
export type StepUpProof = { password: string } | { [field in ProofField]?: unknown };

/**
 * The second-factor registry as step-up uses it (src/sign-in/second-factor.ts, matched by shape: services
 * sit below sign-in): the kinds a user has, and the judgement of an answer by the kind whose field it carries.
 */
export interface StepUpSecondFactors {
  methodsFor(userId: string): Promise<string[]>;
  judge(userId: string, methods: readonly string[], body: Record<string, unknown>): Promise<{ kind: { name: string } | null; right: boolean }>;
}

const WRONG: Record<ProofField, string> = { code: STEP_UP_PROOF_MESSAGES.wrongCode, recoveryCode: STEP_UP_PROOF_MESSAGES.wrongRecoveryCode, passkey: STEP_UP_PROOF_MESSAGES.wrongPasskey };

/**
 * Step-up (CONTRACT 9): a signed-in user proves it is them again, and their session gets a new `auth_time`.
 * A user with a second factor proves it with that factor (a password alone would let a stolen password
 * undo what the second factor protects): a TOTP code, a recovery code or a passkey, judged by the sign-in's
 * registry and spent once like at sign-in. A user without one proves the password, through the one
 * throttled password check. Either way an attempt is reserved in the per-account throttle before the
 * secret is compared. The answer is the session to issue a token for: the same `sid` and absolute end,
 * `auth_time` now.
 */
export function createStepUpService(deps: {
  models: Models;
  checkPassword: PasswordChecker;
  throttle: Pick<AccountThrottle, 'reserve'>;
  secondFactors: StepUpSecondFactors;
  activity: ActivityService;
}) {
  const { models, checkPassword, throttle, secondFactors, activity } = deps;

  /** What the prompt offers the user: the password only to a user without a second factor. */
  async function options(userId: string): Promise<{ hasPassword: boolean; methods: string[] }> {
    const [user, methods] = await Promise.all([models.User.findByPk(userId, { attributes: ['id', 'passwordHash'] }), secondFactors.methodsFor(userId)]);
    return { hasPassword: Boolean(user?.passwordHash) && methods.length === 0, methods };
  }

  /** Checks the proof; answers how it was proved (the activity row's method). */
  async function checkProof(user: { id: string; email: string; passwordHash: string | null; active: boolean }, proof: StepUpProof): Promise<string> {
    const methods = await secondFactors.methodsFor(user.id);
    if ('password' in proof && proof.password !== undefined) {
      if (methods.length > 0) throw AppError.badRequest(STEP_UP_PROOF_MESSAGES.secondFactorNeeded, { errors: { code: STEP_UP_PROOF_MESSAGES.secondFactorNeeded } });
      if (!user.passwordHash) throw AppError.badRequest(STEP_UP_PROOF_MESSAGES.noPassword, { errors: { password: STEP_UP_PROOF_MESSAGES.noPassword } });
      const result = await checkPassword(user.email, proof.password, user);
      if (!result.ok && result.reason === 'throttled') throw AppError.tooManyRequests(result.retryAfterSeconds);
      if (!result.ok) throw AppError.validation({ password: STEP_UP_PROOF_MESSAGES.wrongPassword });
      return 'password';
    }
    const field = SECOND_FACTOR_PROOF_FIELDS.find((name) => (proof as Record<string, unknown>)[name] !== undefined) ?? 'code';
    if (methods.length === 0) throw AppError.badRequest(STEP_UP_PROOF_MESSAGES.noSecondFactor, { errors: { [field]: STEP_UP_PROOF_MESSAGES.noSecondFactor } });
    const attempt = await throttle.reserve(normalizeEmail(user.email));
    if (!attempt.ok) throw AppError.tooManyRequests(attempt.retryAfterSeconds);
    let judged: Awaited<ReturnType<StepUpSecondFactors['judge']>>;
    try {
      judged = await secondFactors.judge(user.id, methods, proof as Record<string, unknown>);
    } catch (err) {
      await attempt.succeeded();
      throw err;
    }
    if (!judged.kind || !judged.right) {
      await attempt.failed();
      throw AppError.validation({ [field]: WRONG[field] });
    }
    await attempt.succeeded();
    return judged.kind.name;
  }

  /** Checks the proof; answers the session (same sid and end, auth_time now) for the renewed token. */
  async function prove(userId: string, sid: string | undefined, proof: StepUpProof, context: RequestContext): Promise<SignInSession> {
    const [user, session] = await Promise.all([models.User.findByPk(userId), sid ? models.Session.findByPk(sid) : null]);
    if (!user || !user.active) throw AppError.unauthorized(STEP_UP_PROOF_MESSAGES.sessionEnded);
    const method = await checkProof(user, proof);
    // A token without a live session of this user (ended meanwhile, or older than sessions) cannot be renewed.
    if (!session || session.userId !== userId || session.revokedAt || session.expiresAt.getTime() <= Date.now()) {
      throw AppError.unauthorized(STEP_UP_PROOF_MESSAGES.sessionEnded);
    }
    await activity.record({ action: 'auth.step_up', userId, email: user.email, details: { method } }, context);
    return { sid: session.id, authTime: Math.floor(Date.now() / 1000), expiresAt: Math.floor(session.expiresAt.getTime() / 1000) };
  }

  return { options, prove };
}

export type StepUpService = ReturnType<typeof createStepUpService>;
