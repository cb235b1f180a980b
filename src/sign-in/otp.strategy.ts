import type { Request } from 'express';
import { Strategy } from 'passport-strategy';
import type { OtpFailureReason, OtpService } from '../services/sign-in-methods/otp.service';
import { OTP_MESSAGES } from '../services/sign-in-methods/otp.service';
import type { OtpLoginSettings } from '../plugins/otp-login.plugin';
import { type SignInFailure, type SignInInfo, throttledSignIn } from './sign-in-result';

/** The otp-login plugin as this request found it (read once per request, shared with the route's guard). */
export type OtpPluginOf = (req: Request) => Promise<{ settings: OtpLoginSettings }>;

/** The validated body of POST /auth/otp/verify. */
interface OtpVerifyBody {
  email: string;
  code: string;
}

/**
 * Sign-in with an emailed one-time code, in the shape of passport-local: read `email` + `code` from
 * the validated body, let the OTP service judge them, then `success`, `fail` (401 with the attempts
 * remaining, the reason going only to the activity row; 429 while the account throttle blocks the
 * email, as for passwords) or `error`.
 */
export class OtpStrategy extends Strategy {
  readonly name = 'otp';

  constructor(
    private readonly otp: Pick<OtpService, 'verify'>,
    private readonly pluginOf: OtpPluginOf,
  ) {
    super();
  }

  override authenticate(req: Request): void {
    const { email, code } = req.body as OtpVerifyBody;
    const refusal = (reason: OtpFailureReason, attemptsRemaining: number, userId: string | null, normalizedEmail: string): SignInFailure => ({
      message: OTP_MESSAGES.invalid,
      body: { attemptsRemaining },
      audit: { action: 'auth.login_failed', userId, email: normalizedEmail, details: { method: 'otp', reason } },
    });
    this.pluginOf(req).then(({ settings }) => this.otp.verify(email, code, settings)).then(
      (result) => {
        if (result.ok) {
          const { user, claim } = result;
          const info: SignInInfo = {
            method: 'otp',
            details: result.created ? { created: true, role: user.role } : {},
            spend: async () => ((await claim()) ? null : refusal('already_used', 0, user.id, user.email)),
          };
          return this.success(user, info);
        }
        // A blocked email gets password sign-in's 429, known or not; no code was read.
        if (result.reason === 'throttled') {
          const throttled = throttledSignIn({ method: 'otp', ...result });
          return this.fail(throttled, 429);
        }
        return this.fail(refusal(result.reason, result.attemptsRemaining, result.userId, result.email), 401);
      },
      (err: unknown) => this.error(err as Error),
    );
  }
}
