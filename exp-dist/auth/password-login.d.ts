import type { Logger } from 'pino';
import type { Models, User } from '../models';
import type { AuthUser } from './auth-user';
import type { PasswordService } from './password.service';
/** Why a password sign-in failed: for the activity log only; every client sees the same 401. */
export type PasswordLoginFailure = 'unknown_email' | 'wrong_password' | 'inactive';
export type PasswordLoginResult = {
    ok: true;
    user: AuthUser;
    passwordRehashed: boolean;
} | {
    ok: false;
    reason: PasswordLoginFailure;
    email: string;
    userId: string | null;
};
/** The signed-in user's shape (also what the verification cache holds), with its stored profile data. */
export declare function toAuthUser(user: User): AuthUser;
/**
 * Checks an email and password (the passport-local verify step). Unknown email, wrong password and
 * deactivated account all cost one PBKDF2 run, so timing does not tell them apart. A legacy or weaker
 * hash is replaced on success by a conditional UPDATE (`WHERE id = ? AND password_hash = <old>`), so of
 * many parallel sign-ins exactly one rewrites it.
 */
export declare function createPasswordLogin(deps: {
    models: Models;
    passwords: PasswordService;
    logger: Logger;
}): {
    check: (rawEmail: string, password: string) => Promise<PasswordLoginResult>;
};
export type PasswordLogin = ReturnType<typeof createPasswordLogin>;
