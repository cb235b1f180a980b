import type { TokenService } from './token.service';
import { signInWithToken, type CredentialCheck, type SessionSeen } from './token-check';
import { AppError } from '../http/app-error';
import { SESSION_MESSAGES } from './server-session';

/**
 * The `auth_session` credential for the guards, tried after the access token: a server session (read
 * by the app-wide session step into `req.serverSession`) holds the access token it was created with, and
 * that token gets the full token check — revocation, the user's current state and epoch, the cache — so
 * logout, logout-all, deactivation, a role change or a password reset end the session at once, on
 * every instance. A session store that failed to load answers 503, never a sign-in and never a 500.
 * Called directly, like the token check, rather than through passport.authenticate, whose per-request
 * strategy object and closures cost more than the check (measured: a tenth of a session request's CPU).
 */
export function createSessionCheck(tokens: Pick<TokenService, 'verify'>, seen: SessionSeen): CredentialCheck {
  return async (req) => {
    // Bearer wins over cookies (CONTRACT 3): a request with an Authorization header is judged by it alone.
    if (req.headers.authorization !== undefined) return false;
    if (req.sessionUnavailable) throw AppError.serviceUnavailable(SESSION_MESSAGES.unavailable);
    const token = req.serverSession?.auth?.token;
    return token !== undefined && token !== '' && signInWithToken(req, token, tokens, seen);
  };
}
