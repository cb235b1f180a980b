import { Strategy as JwtStrategy } from 'passport-jwt';
import type { TokenService } from './token.service';
/**
 * passport-jwt checks the signature and expiry (HS256 only, with the token service's KeyObject); the
 * verify step then applies what a bare JWT cannot know: revocation, the user's current state and the
 * verification cache.
 */
export declare function createJwtStrategy(tokens: TokenService): JwtStrategy;
