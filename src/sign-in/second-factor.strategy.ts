import type { Request } from 'express';
import { Strategy } from 'passport-strategy';
import { SECOND_FACTOR_MESSAGES, type SecondFactor } from './second-factor';
import { throttledSignIn, type SignInFailure, type SignInInfo } from './sign-in-result';

/**
 * The second step of a sign-in (`POST /auth/2fa/verify`), in the shape of passport-local: read the
 * challenge (the body's, else the page's cookie) and the answer (`code`, `recoveryCode`, or another
 * registered kind's field), let the second-factor module judge it, then `success` with the first
 * factor's sign-in (method `<first>+<kind>`, its redirect and extension), or `fail` with one answer for
 * a wrong code and an unknown, spent or dead challenge alike (429 while the account is blocked).
 */
export class SecondFactorStrategy extends Strategy {
  readonly name = 'second-factor';

  constructor(private readonly secondFactor: Pick<SecondFactor, 'answer' | 'challengeOf'>) {
    super();
  }

  override authenticate(req: Request): void {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const refusal = (reason: string, userId: string | null, email: string | null): SignInFailure => ({
      message: SECOND_FACTOR_MESSAGES.invalid,
      audit: { action: 'auth.login_failed', userId, email, details: { method: 'second_factor', reason } },
    });
    this.secondFactor.answer(this.secondFactor.challengeOf(req), body).then(
      (result) => {
        if (result.ok) {
          const { user, signIn, kind, spend } = result;
          const info: SignInInfo = {
            method: `${signIn.method}+${kind}`,
            details: signIn.details,
            redirect: signIn.redirect,
            secondFactor: kind,
            action: signIn.action,
            ...(signIn.extension ? { extension: signIn.extension } : {}),
            spend: async () => ((await spend()) ? null : refusal('already_used', user.id, user.email)),
          };
          return this.success(user, info);
        }
        if (result.reason === 'throttled') return this.fail(throttledSignIn({ method: 'second_factor', ...result }), 429);
        this.fail(refusal(result.reason, result.userId, result.email), 401);
      },
      (err: unknown) => this.error(err as Error),
    );
  }
}
