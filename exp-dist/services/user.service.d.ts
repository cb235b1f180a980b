import { type Sequelize, type Transaction } from 'sequelize';
import type { Logger } from 'pino';
import type { Models, Role, User } from '../models';
import type { PasswordService } from '../auth/password.service';
import type { ProfileService } from '../profiles/profile.service';
export declare const USER_MESSAGES: {
    readonly duplicate: "User with this email or username already exists";
    readonly registrationDisabled: "Registration is currently disabled";
    readonly adminExists: "An admin user already exists";
};
/**
 * Row in `settings` that every user creation locks first (SELECT … FOR UPDATE). It serialises user
 * creation on MariaDB the way IMMEDIATE transactions already do on SQLite, so "is this the first user?",
 * "is the name free?" and "is there an admin?" are answered atomically on both. Its value records who
 * claimed the first-admin role: `{ userId: null }` until then.
 */
export declare const FIRST_ADMIN_CLAIM_KEY = "bootstrap.firstAdmin";
/** What any path that creates a user passes (register, admin API, OTP, magic link, OAuth, seed-admin). */
export interface NewUserInput {
    email: string;
    /** Plain password, hashed here; omitted/null for passwordless accounts. */
    password?: string | null;
    /** Defaults to the email's local part, made unique. */
    username?: string | null;
    firstName?: string | null;
    lastName?: string | null;
    /** Honoured for admin callers; self-registration passes none (viewer). The first user is admin regardless. */
    role?: Role;
    active?: boolean;
    avatarUrl?: string | null;
    /** Custom profile data, ALREADY validated by the caller (e.g. profiles.validateRegistration). */
    profile?: Record<string, unknown>;
}
export interface CreateUserOptions {
    /** Create inside the caller's transaction (e.g. user + OAuth link together); no retry then. */
    transaction?: Transaction;
    /**
     * `first-user`: refuse with 403 "Registration is currently disabled" unless this becomes the first user
     * (self-service sign-up while an admin has turned registration off). `no-admin`: refuse with 409 "An admin
     * user already exists" when any admin exists (seed-admin). Both decided under the same lock as the role.
     */
    onlyIf?: 'first-user' | 'no-admin';
}
/** The public user of the Login response and /auth/me (SPEC 2.1), without custom fields. */
export interface PublicUser {
    id: string;
    email: string;
    username: string;
    firstName: string | null;
    lastName: string | null;
    role: Role;
}
/** Trims and lower-cases an email: the one normal form used for lookup and storage. */
export declare function normalizeEmail(email: string): string;
/** `{ id, email, username, firstName, lastName, role }` of a user row; never the hash or internal fields. */
export declare function toPublicUser(user: Pick<User, 'id' | 'email' | 'username' | 'firstName' | 'lastName' | 'role'>): PublicUser;
/**
 * Creates users. `createUser` is THE way to create one: it normalises the email, hashes the password,
 * picks the username, decides the role (the first user ever is `admin`, atomically) and writes the user
 * and their profile row in one transaction.
 */
export declare function createUserService(deps: {
    sequelize: Sequelize;
    models: Models;
    passwords: PasswordService;
    profiles: Pick<ProfileService, 'createForUser'>;
    logger: Logger;
}): {
    createUser: (input: NewUserInput, options?: CreateUserOptions) => Promise<User>;
    findByEmail: (email: string) => Promise<User | null>;
    adminExists: () => Promise<boolean>;
    anyUserExists: () => Promise<boolean>;
    toPublicUser: typeof toPublicUser;
    normalizeEmail: typeof normalizeEmail;
};
export type UserService = ReturnType<typeof createUserService>;
