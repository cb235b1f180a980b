import { type Sequelize } from 'sequelize';
import type { Models, Role, User } from '../models';
import type { TokenService } from '../auth/token.service';
import type { ActivityService } from './activity.service';
import type { UserService } from './user.service';
import type { RequestContext } from '../http/request-context';
export declare const USER_ADMIN_MESSAGES: {
    readonly notFound: "User not found";
    readonly lastAdmin: "This change would leave no active admin: promote or activate another admin first";
    readonly duplicate: "User with this email or username already exists";
};
/** A user as the admin API shows it (CONTRACT 4): never a hash, epoch or other internal field. */
export interface AdminUserView {
    id: string;
    email: string;
    username: string;
    firstName: string | null;
    lastName: string | null;
    role: Role;
    active: boolean;
    createdAt: Date;
}
export interface UserListQuery {
    page: number;
    limit: number;
    /** Substring of email, username, first or last name (case-insensitive, taken literally). */
    q?: string;
    role?: Role;
}
export interface AdminUserCreate {
    email: string;
    password?: string;
    username?: string;
    firstName?: string | null;
    lastName?: string | null;
    role?: Role;
}
export interface AdminUserChanges {
    role?: Role;
    active?: boolean;
    username?: string;
    firstName?: string | null;
    lastName?: string | null;
}
/** The admin making the change, and from where: both go to the activity log. */
export interface AdminAudit {
    actor: {
        id: string;
        email: string;
    };
    context: RequestContext;
}
export declare function toAdminUserView(user: User): AdminUserView;
/**
 * User administration (`manage:users`). The invariant it keeps: there is always at least one active
 * admin. Every change that could remove one (demotion, deactivation, deletion) locks the set of active
 * admins (`SELECT … FOR UPDATE` on MariaDB; SQLite transactions are IMMEDIATE, i.e. serialised) and
 * counts it in the same transaction as the write, so two admins demoting each other at once cannot
 * both succeed. Role changes, deactivation and deletion end the user's tokens at once.
 */
export declare function createUserAdminService(deps: {
    sequelize: Sequelize;
    models: Models;
    tokens: Pick<TokenService, 'revokeAllForUser' | 'userChanged'>;
    activity: ActivityService;
    users: Pick<UserService, 'createUser'>;
}): {
    list: (query: UserListQuery) => Promise<{
        users: AdminUserView[];
        total: number;
        page: number;
        limit: number;
    }>;
    get: (id: string) => Promise<AdminUserView>;
    create: (input: AdminUserCreate, audit: AdminAudit) => Promise<AdminUserView>;
    update: (id: string, input: AdminUserChanges, audit: AdminAudit) => Promise<AdminUserView>;
    remove: (id: string, audit: AdminAudit) => Promise<void>;
};
export type UserAdminService = ReturnType<typeof createUserAdminService>;
