import type { Request } from 'express';
import type { TokenService } from './token.service';
import { extractToken } from './credentials';

/** Sets req.user (with the token's claims) when the request carries a valid access token; true when it did. */
export type TokenCheck = (req: Request) => Promise<boolean>;

/**
 * The access-token step of every guard, called directly rather than through passport.authenticate: it
 * runs on nearly every request, and passport's per-request strategy objects and passport-jwt's option
 * handling cost more than the check itself. The token service does the work: signature (HS256 only),
 * expiry, revocation, the user's current state and the verification cache.
 */
export function createTokenCheck(tokens: Pick<TokenService, 'verify'>): TokenCheck {
  return async (req) => {
    const token = extractToken(req);
    if (token === null) return false;
    const result = await tokens.verify(token);
    if (!result) return false;
    req.user = result.user;
    req.tokenClaims = result.claims;
    req.authToken = token;
    return true;
  };
}
