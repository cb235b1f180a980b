import type { Config } from '../config/config';
import type { AccessClaims, AuthUser } from '../auth/auth-user';
import type { IssuedToken, TokenService } from '../auth/token.service';
import type { PasswordLoginResult } from '../auth/password-login';
import type { ProfileService } from '../profiles/profile.service';
import type { RequestContext } from '../http/request-context';
import type { ActivityService } from './activity.service';
import type { SettingsService } from './settings.service';
import { type PublicUser, type UserService } from './user.service';
export declare const AUTH_MESSAGES: {
    readonly invalidCredentials: "Invalid email or password";
    readonly invalidToken: "Invalid or expired token";
    readonly inactive: "User is not active";
    readonly adminCreated: "Admin user created";
};
/** The user of a Login response: the public fields merged with custom profile fields. */
export type PresentedUser = ReturnType<ProfileService['presentUser']>;
export interface SignedIn {
    user: PresentedUser;
    issued: IssuedToken;
}
export interface RegistrationInput {
    email: string;
    password: string;
    username?: string;
    firstName?: string;
    lastName?: string;
    /** The registrationFields as sent (top-level keys of the body); validated here by the profiles seam. */
    custom: Record<string, unknown>;
}
/**
 * Session flows behind /auth: registration, password sign-in (after passport-local), refresh, sign-out
 * and the bootstrap admin. Knows nothing of HTTP: the controller passes parsed input and a request
 * context, and turns the results into cookies and bodies.
 */
export declare function createAuthService(deps: {
    config: Config;
    users: UserService;
    tokens: TokenService;
    settings: SettingsService;
    activity: ActivityService;
    profiles: Pick<ProfileService, 'validateRegistration' | 'presentUser'>;
}): {
    register: (input: RegistrationInput, context: RequestContext) => Promise<SignedIn>;
    completePasswordLogin: (result: Extract<PasswordLoginResult, {
        ok: true;
    }>, context: RequestContext) => Promise<SignedIn>;
    failPasswordLogin: (result: Extract<PasswordLoginResult, {
        ok: false;
    }>, context: RequestContext) => Promise<never>;
    refresh: (token: string | null, context: RequestContext) => Promise<IssuedToken>;
    logout: (signedIn: {
        user: AuthUser;
        token: string;
        claims: AccessClaims;
    } | null, context: RequestContext) => Promise<void>;
    logoutAll: (user: AuthUser, context: RequestContext) => Promise<void>;
    seedAdmin: (input: {
        email?: string;
        password?: string;
    }, context: RequestContext) => Promise<{
        message: string;
        user: PublicUser;
    }>;
};
export type AuthService = ReturnType<typeof createAuthService>;
