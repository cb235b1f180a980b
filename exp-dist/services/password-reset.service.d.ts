import { type Sequelize } from 'sequelize';
import type { Logger } from 'pino';
import type { Config } from '../config/config';
import type { Models } from '../models';
import type { RequestContext } from '../http/request-context';
import type { ActivityService } from './activity.service';
import type { Mailer } from './mailer';
export declare const RESET_TOKEN_TTL_SECONDS: number;
export declare const RESET_MESSAGES: {
    readonly requested: "If an account with this email exists, a password reset link has been sent.";
    readonly done: "Password has been reset";
    readonly invalid: "Invalid or expired reset token";
};
export declare function hashResetToken(token: string): string;
export interface PasswordResetDeps {
    config: Config;
    sequelize: Sequelize;
    models: Models;
    activity: ActivityService;
    mailer: Mailer;
    logger: Logger;
    /** Hashes a new password the way sign-in checks it (the password service). */
    hashPassword(password: string): Promise<string>;
    /** Ends every existing token of the user, inside the given transaction (the token service). */
    revokeAllForUser(userId: string, options: {
        transaction?: import('sequelize').Transaction;
    }): Promise<void>;
}
/**
 * Forgotten passwords (CONTRACT 4). The request answers the same, in about the same time, whether or not
 * the account exists: the request path does one lookup and one activity row either way, and the token
 * and mail are produced after the answer (never awaited on the request path).
 */
export declare function createPasswordResetService(deps: PasswordResetDeps): {
    requestReset: (rawEmail: string, context: RequestContext) => Promise<void>;
    resetPassword: (token: string, password: string, context: RequestContext) => Promise<void>;
    /** True when the token can still be used (the form page says so before the user types). */
    isUsable: (token: string) => Promise<boolean>;
    /** Resolves when every background delivery started so far has finished. */
    idle: () => Promise<void>;
};
export type PasswordResetService = ReturnType<typeof createPasswordResetService>;
