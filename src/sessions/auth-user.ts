import type { Role, User } from '../models';

/** The public user of the Login response and /auth/me (SPEC 2.1), without custom fields. */
export interface PublicUser {
  id: string;
  email: string;
  username: string;
  firstName: string | null;
  lastName: string | null;
  role: Role;
}

/** The signed-in user as the web layer sees it (req.user), also what the verification cache holds. */
export interface AuthUser extends PublicUser {
  tokenEpoch: number;
  /** Custom profile data as stored (defaults are applied when answered). */
  profileData: Record<string, unknown>;
  /** Whether the address was proven (CONTRACT 12 `emailVerified`); absent in entries cached before it existed. */
  emailVerified?: boolean;
  /**
   * Whether TOTP is on (CONTRACT 9 `twoFactorEnabled`), read with the user; absent where the user came from
   * elsewhere (an OAuth outcome) or from a cache entry made before it existed: ask the two-factor service then.
   */
  twoFactorEnabled?: boolean;
}

/** Claims of an access token (CONTRACT 3), plus `ep`, the user's token epoch at issue. */
export interface AccessClaims {
  sub: string;
  userId: string;
  email: string;
  role: Role;
  jti: string;
  ep: number;
  typ: 'access';
  iat: number;
  exp: number;
  /**
   * The refresh grace (seconds) when the token was issued: the most it can ever get. A later, larger grace
   * does not extend it, so a revocation kept until `exp + grace` outlives every chance to refresh it.
   * Absent from tokens issued before the claim existed (they follow the current grace).
   */
  grace?: number;
  /**
   * The sign-in this token belongs to (CONTRACT 8 `sid`): set at sign-in, carried unchanged through every
   * refresh, so logout can end every token of the chain. (Tokens from before the claim existed lack `iss`
   * too, and are refused: see CONTRACT note §8.)
   */
  sid: string;
  /** Epoch seconds of the sign-in (CONTRACT 8 `auth_time`), carried through refresh: what step-up checks. */
  auth_time: number;
  /** JWT_ISSUER, and JWT_AUDIENCE when set (CONTRACT 11): checked on every full verification. */
  iss?: string;
  aud?: string;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    // Passport types req.user as Express.User; ours carries the token's claims alongside.
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type
    interface User extends AuthUser {}
    interface Request {
      /** Claims of the access token that authenticated this request, when one did. */
      tokenClaims?: AccessClaims;
      /** The raw credential that authenticated this request (for logout of that very token). */
      authToken?: string;
    }
  }
}

/** `{ id, email, username, firstName, lastName, role }` of a user row; never the hash or internal fields. */
export function toPublicUser(user: Pick<User, 'id' | 'email' | 'username' | 'firstName' | 'lastName' | 'role'>): PublicUser {
  return {
    id: user.id,
    email: user.email,
    username: user.username,
    firstName: user.firstName ?? null,
    lastName: user.lastName ?? null,
    role: user.role,
  };
}

/** The signed-in user's shape (also what the verification cache holds), with its stored profile data. */
export function toAuthUser(user: User): AuthUser {
  const profile = (user as User & { profile?: { data?: Record<string, unknown> } | null }).profile;
  return { ...toPublicUser(user), tokenEpoch: user.tokenEpoch, profileData: profile?.data ?? {}, emailVerified: Boolean(user.emailVerifiedAt) };
}
