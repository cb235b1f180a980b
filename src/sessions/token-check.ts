import type { Request } from 'express';
import type { TokenService } from './token.service';
import { extractToken } from './request-token';

/**
 * One credential of the guards: sets req.user (with the token's claims) when the request carries this
 * credential and it is valid, and answers whether it did. May reject with an AppError (a store that
 * cannot be read), never for a missing or bad credential.
 */
export type CredentialCheck = (req: Request) => Promise<boolean>;

/**
 * The access token (Bearer header or auth_token cookie), the first credential of every guard. Called
 * directly rather than through passport.authenticate: it runs on nearly every request, and passport's
 * per-request strategy objects and passport-jwt's option handling cost more than the check itself. The
 * token service does the work: signature (HS256 only), expiry, revocation, the user's current state and
 * the verification cache.
 */
export function createTokenCheck(tokens: Pick<TokenService, 'verify'>, seen: SessionSeen): CredentialCheck {
  return async (req) => {
    const token = extractToken(req);
    return token !== null && signInWithToken(req, token, tokens, seen);
  };
}

/** Told the session (`sid`) of every signed-in request; moves its `lastUsedAt` at most once a minute, off the request path. */
export type SessionSeen = (sid: string | undefined) => void;

/** Gives the access token the full check and, when it passes, signs the request in as its user. */
export async function signInWithToken(req: Request, token: string, tokens: Pick<TokenService, 'verify'>, seen: SessionSeen): Promise<boolean> {
  const result = await tokens.verify(token);
  if (!result) return false;
  seen(result.claims.sid);
  req.user = result.user;
  req.tokenClaims = result.claims;
  req.authToken = token;
  return true;
}
