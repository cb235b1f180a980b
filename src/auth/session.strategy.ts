import type { Request } from 'express';
import { Strategy } from 'passport-strategy';
import type { TokenService } from './token.service';
import { AppError } from '../http/app-error';
import { SESSION_MESSAGES } from './server-session';

/**
 * The `auth_session` credential for the guards, tried after the JWT strategy: a server session (loaded
 * by the app-wide session step) holds the access token it was created with, and that token gets the
 * full token check — revocation, the user's current state and epoch, the verification cache — so
 * logout, logout-all, deactivation, a role change or a password reset end the session at once, on
 * every instance. A session store that failed to load answers 503, never a sign-in and never a 500.
 */
export class SessionStrategy extends Strategy {
  readonly name = 'auth-session';

  constructor(private readonly tokens: Pick<TokenService, 'verify'>) {
    super();
  }

  override authenticate(req: Request): void {
    // Bearer wins over cookies (CONTRACT 3): a request with an Authorization header is judged by it alone.
    if (req.headers.authorization !== undefined) return this.fail(401);
    if (req.sessionUnavailable) return this.error(AppError.serviceUnavailable(SESSION_MESSAGES.unavailable));
    const token = req.session?.auth?.token;
    if (!token) return this.fail(401);
    this.tokens.verify(token).then(
      (result) => {
        if (!result) return this.fail(401);
        req.tokenClaims = result.claims;
        req.authToken = token;
        return this.success(result.user);
      },
      (err: unknown) => this.error(err as Error),
    );
  }
}
