import { Strategy as JwtStrategy } from 'passport-jwt';
import type { Request } from 'express';
import type { TokenService } from './token.service';
import { extractToken } from './credentials';

/**
 * passport-jwt checks the signature and expiry (HS256 only, with the token service's KeyObject); the
 * verify step then applies what a bare JWT cannot know: revocation, the user's current state and the
 * verification cache.
 */
export function createJwtStrategy(tokens: TokenService) {
  return new JwtStrategy(
    {
      jwtFromRequest: extractToken,
      secretOrKeyProvider: (_req: Request, _raw: string, done: (err: unknown, key?: string) => void) =>
        done(null, tokens.signingKey as unknown as string),
      algorithms: [tokens.algorithm],
      passReqToCallback: true,
    },
    (req: Request, payload: unknown, done: (err: unknown, user?: Express.User | false) => void) => {
      const token = extractToken(req) as string;
      tokens.verify(token, payload).then(
        (result) => {
          if (!result) return done(null, false);
          req.tokenClaims = result.claims;
          req.authToken = token;
          return done(null, result.user);
        },
        (err: unknown) => done(err),
      );
    },
  );
}
