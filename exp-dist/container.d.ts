import type { Logger } from 'pino';
import type { Sequelize } from 'sequelize';
import type { Config } from './config/config';
import type { Models } from './models';
import type { KeyValueStore } from './store';
import { ApiDocs } from './http/api-router';
import { type NormalizedProfileDefinition } from './profiles/profile-definition';
/** What the app is built from: opened connections and validated configuration (see server.ts). */
export interface AppDependencies {
    config: Config;
    logger: Logger;
    sequelize: Sequelize;
    models: Models;
    store: KeyValueStore;
    /** Custom profile fields from AUTH_CONFIG (none when absent). */
    profileDefinition?: NormalizedProfileDefinition;
}
/** The composition root: every service gets its collaborators here, and only here. */
export declare function createContainer(deps: AppDependencies): {
    settings: {
        getSecuritySettings: () => Promise<import("./services/settings.service").SecuritySettings>;
        updateSecuritySettings: (update: import("./services/settings.service").SecuritySettingsUpdate) => Promise<import("./services/settings.service").SecuritySettings>;
    };
    activity: {
        record: (entry: import("./services/activity.service").ActivityEntry, context: import("./http/request-context").RequestContext) => Promise<void>;
        list: (filter: import("./services/activity.service").ActivityFilter) => Promise<{
            logs: import("./services/activity.service").ActivityLogView[];
            total: number;
        }>;
    };
    tokens: {
        signingKey: import("crypto").KeyObject;
        algorithm: "HS256";
        issue: (user: Pick<import("./models").User, "id" | "email" | "role" | "tokenEpoch">) => Promise<import("./auth/token.service").IssuedToken>;
        verify: (token: string, verifiedPayload?: unknown) => Promise<{
            user: import("./auth/auth-user").AuthUser;
            claims: import("./auth/auth-user").AccessClaims;
        } | null>;
        checkForRefresh: (token: string) => Promise<import("./auth/token.service").RefreshCheck>;
        revokeToken: (token: string, claims: import("./auth/auth-user").AccessClaims) => Promise<void>;
        revokeAllForUser: (userId: string, options?: {
            transaction?: import("sequelize").Transaction;
        }) => Promise<void>;
        userChanged: (userId: string) => Promise<void>;
    };
    passport: import("passport").Authenticator<import("express").Handler, any, any, import("passport").AuthenticateOptions>;
    guards: {
        optionalAuth: import("express").RequestHandler<import("express-serve-static-core").ParamsDictionary, any, any, import("qs").ParsedQs, Record<string, any>>;
        requireAuth: import("express").RequestHandler<import("express-serve-static-core").ParamsDictionary, any, any, import("qs").ParsedQs, Record<string, any>>;
        requireRole: (...roles: import("./models").Role[]) => import("express").RequestHandler;
        requirePermission: (permission: import("./auth/permissions").Permission) => import("express").RequestHandler;
    };
    docs: ApiDocs;
    profiles: {
        definition: NormalizedProfileDefinition;
        schema: () => {
            fields: readonly import("./profiles/profile-definition").NormalizedProfileField[];
            registrationFields: readonly string[];
            builtInFields: readonly import("./profiles/profile-definition").BuiltInProfileField[];
        };
        registrationFields: () => import("./profiles/profile-definition").NormalizedProfileField[];
        validateRegistration: (extraFields: Record<string, unknown>) => import("./profiles/profile-validator").ProfileValidationResult;
        createForUser: (userId: string, data: Record<string, unknown>, transaction?: import("sequelize").Transaction) => Promise<void>;
        presentUser: (user: Pick<import("./auth/auth-user").AuthUser, "id" | "email" | "username" | "firstName" | "lastName" | "role" | "profileData">) => {
            id: string;
            email: string;
            username: string;
            firstName: string | null;
            lastName: string | null;
            role: "admin" | "editor" | "author" | "viewer";
        };
        get: (userId: string) => Promise<import("./profiles/profile.service").ProfileView>;
        update: (userId: string, changes: {
            customData?: Record<string, unknown>;
            profile?: import("./profiles/profile.service").BuiltInProfile;
        }) => Promise<import("./profiles/profile.service").ProfileView>;
    };
    limits: import("./middleware/rate-limit").RateLimits;
    mailer: import("./services/mailer").Mailer;
    passwordReset: {
        requestReset: (rawEmail: string, context: import("./http/request-context").RequestContext) => Promise<void>;
        resetPassword: (token: string, password: string, context: import("./http/request-context").RequestContext) => Promise<void>;
        isUsable: (token: string) => Promise<boolean>;
        idle: () => Promise<void>;
    };
    plugins: {
        names: string[];
        list: () => Promise<import("./plugins/plugin-registry").PluginView[]>;
        get: (name: string) => Promise<import("./plugins/plugin-registry").PluginView>;
        update: (name: string, change: import("./plugins/plugin-registry").PluginUpdate, audit?: import("./plugins/plugin-registry").PluginAudit) => Promise<import("./plugins/plugin-registry").PluginView>;
        isActive: (name: import("./plugins").PluginName) => Promise<boolean>;
        settingsOf: <N extends import("./plugins").PluginName>(name: N) => Promise<import("./plugins").PluginSettingsMap[N]>;
    };
    passwords: {
        iterations: number;
        hash: (password: string) => Promise<string>;
        verify: (password: string, stored: string | null | undefined) => Promise<import("./auth/password.service").PasswordCheck>;
        verifyAgainstDummy: (password: string) => Promise<import("./auth/password.service").PasswordCheck>;
    };
    users: {
        createUser: (input: import("./services/user.service").NewUserInput, options?: import("./services/user.service").CreateUserOptions) => Promise<import("./models").User>;
        findByEmail: (email: string) => Promise<import("./models").User | null>;
        adminExists: () => Promise<boolean>;
        anyUserExists: () => Promise<boolean>;
        toPublicUser: typeof import("./services/user.service").toPublicUser;
        normalizeEmail: typeof import("./services/user.service").normalizeEmail;
    };
    auth: {
        register: (input: import("./services/auth.service").RegistrationInput, context: import("./http/request-context").RequestContext) => Promise<import("./services/auth.service").SignedIn>;
        completePasswordLogin: (result: Extract<import("./auth/password-login").PasswordLoginResult, {
            ok: true;
        }>, context: import("./http/request-context").RequestContext) => Promise<import("./services/auth.service").SignedIn>;
        failPasswordLogin: (result: Extract<import("./auth/password-login").PasswordLoginResult, {
            ok: false;
        }>, context: import("./http/request-context").RequestContext) => Promise<never>;
        refresh: (token: string | null, context: import("./http/request-context").RequestContext) => Promise<import("./auth/token.service").IssuedToken>;
        logout: (signedIn: {
            user: import("./auth/auth-user").AuthUser;
            token: string;
            claims: import("./auth/auth-user").AccessClaims;
        } | null, context: import("./http/request-context").RequestContext) => Promise<void>;
        logoutAll: (user: import("./auth/auth-user").AuthUser, context: import("./http/request-context").RequestContext) => Promise<void>;
        seedAdmin: (input: {
            email?: string;
            password?: string;
        }, context: import("./http/request-context").RequestContext) => Promise<{
            message: string;
            user: import("./services/user.service").PublicUser;
        }>;
    };
    csrf: {
        issue: (userId: string) => string;
        isValidFor: (token: string, userId: string) => boolean;
        protect: import("express").RequestHandler<import("express-serve-static-core").ParamsDictionary, any, any, import("qs").ParsedQs, Record<string, any>>;
    };
    cookies: {
        set: (res: import("express").Response, issued: import("./auth/token.service").IssuedToken, sameSite?: "strict" | "lax") => void;
        clear: (res: import("express").Response) => void;
    };
    userAdmin: {
        list: (query: import("./services/user-admin.service").UserListQuery) => Promise<{
            users: import("./services/user-admin.service").AdminUserView[];
            total: number;
            page: number;
            limit: number;
        }>;
        get: (id: string) => Promise<import("./services/user-admin.service").AdminUserView>;
        create: (input: import("./services/user-admin.service").AdminUserCreate, audit: import("./services/user-admin.service").AdminAudit) => Promise<import("./services/user-admin.service").AdminUserView>;
        update: (id: string, input: import("./services/user-admin.service").AdminUserChanges, audit: import("./services/user-admin.service").AdminAudit) => Promise<import("./services/user-admin.service").AdminUserView>;
        remove: (id: string, audit: import("./services/user-admin.service").AdminAudit) => Promise<void>;
    };
    collections: {
        list: () => Promise<import("./services/collection.service").CollectionView[]>;
        create: (input: import("./services/collection.service").CollectionInput) => Promise<import("./services/collection.service").CollectionView>;
        update: (id: string, changes: Partial<import("./services/collection.service").CollectionInput>) => Promise<import("./services/collection.service").CollectionView>;
        remove: (id: string) => Promise<void>;
    };
    content: {
        list: (actor: import("./auth/content-policy").ContentActor, query: import("./services/content.service").ContentListQuery) => Promise<{
            content: import("./services/content.service").ContentView[];
            total: number;
        }>;
        get: (actor: import("./auth/content-policy").ContentActor, id: string) => Promise<import("./services/content.service").ContentView>;
        create: (actor: import("./auth/content-policy").ContentActor, input: import("./services/content.service").ContentInput) => Promise<import("./services/content.service").ContentView>;
        update: (actor: import("./auth/content-policy").ContentActor, id: string, changes: Partial<import("./services/content.service").ContentInput>) => Promise<import("./services/content.service").ContentView>;
        remove: (actor: import("./auth/content-policy").ContentActor, id: string) => Promise<void>;
    };
    config: Config;
    logger: Logger;
    sequelize: Sequelize;
    models: Models;
    store: KeyValueStore;
    /** Custom profile fields from AUTH_CONFIG (none when absent). */
    profileDefinition?: NormalizedProfileDefinition;
};
export type Container = ReturnType<typeof createContainer>;
