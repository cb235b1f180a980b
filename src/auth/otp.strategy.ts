import type { Request } from 'express';
import { Strategy } from 'passport-strategy';
import type { OtpService } from '../services/otp.service';
import { OTP_MESSAGES } from '../services/otp.service';
import type { SignInFailure, SignInInfo } from './sign-in-result';

/** The validated body of POST /auth/otp/verify. */
interface OtpVerifyBody {
  email: string;
  code: string;
}

/**
 * Sign-in with an emailed one-time code, in the shape of passport-local: read `email` + `code` from
 * the validated body, let the OTP service judge them, then `success`, `fail` (401 with the attempts
 * remaining; the reason goes only to the activity row) or `error`.
 */
export class OtpStrategy extends Strategy {
  readonly name = 'otp';

  constructor(private readonly otp: Pick<OtpService, 'verify'>) {
    super();
  }

  override authenticate(req: Request): void {
    const { email, code } = req.body as OtpVerifyBody;
    this.otp.verify(email, code).then(
      (result) => {
        if (result.ok) {
          const info: SignInInfo = { method: 'otp', details: result.created ? { created: true, role: result.user.role } : {} };
          return this.success(result.user, info);
        }
        const failure: SignInFailure = {
          message: OTP_MESSAGES.invalid,
          body: { attemptsRemaining: result.attemptsRemaining },
          audit: { action: 'auth.login_failed', userId: result.userId, email: result.email, details: { method: 'otp', reason: result.reason } },
        };
        return this.fail(failure, 401);
      },
      (err: unknown) => this.error(err as Error),
    );
  }
}
