import { Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
export declare const ROLES: readonly ["admin", "editor", "author", "viewer"];
export type Role = (typeof ROLES)[number];
export declare const CONTENT_STATUSES: readonly ["draft", "review", "published"];
export type ContentStatus = (typeof CONTENT_STATUSES)[number];
export declare class User extends Model<InferAttributes<User>, InferCreationAttributes<User>> {
    id: string;
    email: string;
    username: string;
    firstName: string | null;
    lastName: string | null;
    role: Role;
    active: CreationOptional<boolean>;
    passwordHash: string | null;
    tokenEpoch: CreationOptional<number>;
    avatarUrl: CreationOptional<string | null>;
    lastLoginAt: CreationOptional<Date | null>;
    createdAt: CreationOptional<Date>;
    updatedAt: CreationOptional<Date>;
}
export declare class UserProfile extends Model<InferAttributes<UserProfile>, InferCreationAttributes<UserProfile>> {
    userId: string;
    displayName: CreationOptional<string | null>;
    bio: CreationOptional<string | null>;
    company: CreationOptional<string | null>;
    jobTitle: CreationOptional<string | null>;
    website: CreationOptional<string | null>;
    location: CreationOptional<string | null>;
    dateOfBirth: CreationOptional<number | null>;
    data: Record<string, unknown>;
    createdAt: CreationOptional<Date>;
    updatedAt: CreationOptional<Date>;
}
export declare class OtpCode extends Model<InferAttributes<OtpCode>, InferCreationAttributes<OtpCode>> {
    id: string;
    userEmail: string;
    code: string;
    expiresAt: number;
    attempts: CreationOptional<number>;
    createdAt: CreationOptional<number>;
}
export declare class AuthVerification extends Model<InferAttributes<AuthVerification>, InferCreationAttributes<AuthVerification>> {
    id: string;
    identifier: string;
    value: string;
    expiresAt: Date;
    createdAt: CreationOptional<Date>;
    updatedAt: CreationOptional<Date>;
}
export declare class PasswordResetToken extends Model<InferAttributes<PasswordResetToken>, InferCreationAttributes<PasswordResetToken>> {
    id: string;
    userId: string;
    tokenHash: string;
    expiresAt: Date;
    usedAt: CreationOptional<Date | null>;
    createdAt: CreationOptional<Date>;
}
export declare class OAuthAccount extends Model<InferAttributes<OAuthAccount>, InferCreationAttributes<OAuthAccount>> {
    id: string;
    userId: string;
    provider: string;
    providerAccountId: string;
    email: string | null;
    createdAt: CreationOptional<Date>;
    updatedAt: CreationOptional<Date>;
}
export declare class Setting extends Model<InferAttributes<Setting>, InferCreationAttributes<Setting>> {
    key: string;
    value: unknown;
    updatedAt: CreationOptional<Date>;
}
export declare class Plugin extends Model<InferAttributes<Plugin>, InferCreationAttributes<Plugin>> {
    name: string;
    active: boolean;
    settings: Record<string, unknown>;
    createdAt: CreationOptional<Date>;
    updatedAt: CreationOptional<Date>;
}
export declare class ActivityLog extends Model<InferAttributes<ActivityLog>, InferCreationAttributes<ActivityLog>> {
    id: CreationOptional<number>;
    action: string;
    userId: string | null;
    email: string | null;
    ip: string | null;
    userAgent: string | null;
    details: Record<string, unknown> | null;
    createdAt: CreationOptional<Date>;
}
export declare class Collection extends Model<InferAttributes<Collection>, InferCreationAttributes<Collection>> {
    id: string;
    name: string;
    description: string | null;
    createdAt: CreationOptional<Date>;
    updatedAt: CreationOptional<Date>;
}
export declare class Content extends Model<InferAttributes<Content>, InferCreationAttributes<Content>> {
    id: string;
    title: string;
    body: string | null;
    status: CreationOptional<ContentStatus>;
    collectionId: string | null;
    authorId: string | null;
    createdAt: CreationOptional<Date>;
    updatedAt: CreationOptional<Date>;
}
export interface Models {
    User: typeof User;
    UserProfile: typeof UserProfile;
    OtpCode: typeof OtpCode;
    AuthVerification: typeof AuthVerification;
    PasswordResetToken: typeof PasswordResetToken;
    OAuthAccount: typeof OAuthAccount;
    Setting: typeof Setting;
    Plugin: typeof Plugin;
    ActivityLog: typeof ActivityLog;
    Collection: typeof Collection;
    Content: typeof Content;
}
/** Binds every model to the given Sequelize instance; the columns mirror the migrations. */
export declare function defineModels(sequelize: Sequelize): Models;
