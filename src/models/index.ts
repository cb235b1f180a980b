import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { jsonColumn } from './json-column';
import { defineRevokedToken, RevokedToken } from './revoked-token';
import { defineSession, Session } from './session';
import { defineEmailToken, type EmailToken } from './email-token';
import { definePasskey, type Passkey } from './passkey';
import { defineTwoFactor, type TwoFactorModels } from './two-factor';
import { defineKeyModels, type KeyModels } from './credential-keys';
import { defineContentModels, type ContentModels } from './content';
import { defineOidcModels, type OidcModels } from './oidc';
import { defineSsoModels, type SsoModels } from './sso';
import { defineOutboxModels, type OutboxModels } from './outbox';
export type { Session };

export const ROLES = ['admin', 'editor', 'author', 'viewer'] as const;
export type Role = (typeof ROLES)[number];
export { CONTENT_STATUSES, Collection, Content, type ContentStatus } from './content';

export class User extends Model<InferAttributes<User>, InferCreationAttributes<User>> {
  declare id: string;
  declare email: string;
  declare username: string;
  declare firstName: string | null;
  declare lastName: string | null;
  declare role: Role;
  declare active: CreationOptional<boolean>;
  declare passwordHash: string | null;
  declare tokenEpoch: CreationOptional<number>;
  declare avatarUrl: CreationOptional<string | null>;
  declare lastLoginAt: CreationOptional<Date | null>;
  declare emailVerifiedAt: CreationOptional<Date | null>; // null while the address is unproven (CONTRACT 12)
  /** Signed itself up with a password and is not the first user: "unverified" until proven (CONTRACT 18). */
  declare selfRegistered: CreationOptional<boolean>;
  /** Imported, its search trigrams not written yet (src/services/accounts/search-index-fill.ts). */
  declare searchPending: CreationOptional<boolean>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

export class UserProfile extends Model<InferAttributes<UserProfile>, InferCreationAttributes<UserProfile>> {
  declare userId: string;
  declare displayName: CreationOptional<string | null>;
  declare bio: CreationOptional<string | null>;
  declare company: CreationOptional<string | null>;
  declare jobTitle: CreationOptional<string | null>;
  declare website: CreationOptional<string | null>;
  declare location: CreationOptional<string | null>;
  declare dateOfBirth: CreationOptional<number | null>;
  declare data: Record<string, unknown>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

export class OtpCode extends Model<InferAttributes<OtpCode>, InferCreationAttributes<OtpCode>> {
  declare id: string;
  declare userEmail: string;
  declare code: string;
  declare expiresAt: number;
  declare attempts: CreationOptional<number>;
  declare createdAt: CreationOptional<number>;
}

export class AuthVerification extends Model<InferAttributes<AuthVerification>, InferCreationAttributes<AuthVerification>> {
  declare id: string;
  declare identifier: string;
  declare value: string;
  declare userEpoch: CreationOptional<number>; // the user's token epoch at issue (0: no account yet)
  declare expiresAt: Date;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

export class PasswordResetToken extends Model<InferAttributes<PasswordResetToken>, InferCreationAttributes<PasswordResetToken>> {
  declare id: string;
  declare userId: string;
  declare tokenHash: string;
  declare expiresAt: Date;
  declare usedAt: CreationOptional<Date | null>;
  declare createdAt: CreationOptional<Date>;
}

export class OAuthAccount extends Model<InferAttributes<OAuthAccount>, InferCreationAttributes<OAuthAccount>> {
  declare id: string;
  declare userId: string;
  declare provider: string;
  declare providerAccountId: string;
  declare email: string | null;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

export class Setting extends Model<InferAttributes<Setting>, InferCreationAttributes<Setting>> {
  declare key: string;
  declare value: unknown;
  declare updatedAt: CreationOptional<Date>;
}

export class Plugin extends Model<InferAttributes<Plugin>, InferCreationAttributes<Plugin>> {
  declare name: string;
  declare active: boolean;
  declare settings: Record<string, unknown>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

export class ActivityLog extends Model<InferAttributes<ActivityLog>, InferCreationAttributes<ActivityLog>> {
  declare id: CreationOptional<number>;
  declare action: string;
  declare userId: string | null;
  declare email: string | null;
  declare ip: string | null;
  declare userAgent: string | null;
  declare details: Record<string, unknown> | null;
  declare createdAt: CreationOptional<Date>;
}

export interface Models extends TwoFactorModels, KeyModels, ContentModels, OidcModels, SsoModels, OutboxModels {
  User: typeof User;
  UserProfile: typeof UserProfile;
  OtpCode: typeof OtpCode;
  AuthVerification: typeof AuthVerification;
  PasswordResetToken: typeof PasswordResetToken;
  OAuthAccount: typeof OAuthAccount;
  Setting: typeof Setting;
  Plugin: typeof Plugin;
  ActivityLog: typeof ActivityLog;
  RevokedToken: typeof RevokedToken;
  Session: typeof Session;
  EmailToken: typeof EmailToken;
  Passkey: typeof Passkey;
}

const id = { type: DataTypes.STRING(36), primaryKey: true, allowNull: false };
const timestamps = {
  createdAt: { type: DataTypes.DATE, allowNull: false },
  updatedAt: { type: DataTypes.DATE, allowNull: false },
};
// Lists ordered newest first need sub-second order; DATE(3) makes Sequelize write the milliseconds
// (migration 20261123000100 widens the MariaDB columns to match).
const createdAtMilliseconds = { type: DataTypes.DATE(3), allowNull: false };

/** Binds every model to the given Sequelize instance; the columns mirror the migrations. */
export function defineModels(sequelize: Sequelize): Models {
  // Fresh subclasses per instance, so two Sequelize instances (a test's second app) never share bindings.
  const UserM = class extends User {};
  const UserProfileM = class extends UserProfile {};
  const OtpCodeM = class extends OtpCode {};
  const AuthVerificationM = class extends AuthVerification {};
  const PasswordResetTokenM = class extends PasswordResetToken {};
  const OAuthAccountM = class extends OAuthAccount {};
  const SettingM = class extends Setting {};
  const PluginM = class extends Plugin {};
  const ActivityLogM = class extends ActivityLog {};

  UserM.init(
    {
      id,
      email: { type: DataTypes.STRING(255), allowNull: false, unique: true },
      username: { type: DataTypes.STRING(64), allowNull: false, unique: true },
      firstName: { type: DataTypes.STRING(100), allowNull: true },
      lastName: { type: DataTypes.STRING(100), allowNull: true },
      role: { type: DataTypes.STRING(16), allowNull: false, defaultValue: 'viewer' },
      active: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true },
      passwordHash: { type: DataTypes.STRING(255), allowNull: true },
      tokenEpoch: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      avatarUrl: { type: DataTypes.STRING(1024), allowNull: true },
      lastLoginAt: { type: DataTypes.DATE, allowNull: true },
      emailVerifiedAt: { type: DataTypes.DATE(3), allowNull: true },
      selfRegistered: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      searchPending: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      ...timestamps,
      createdAt: createdAtMilliseconds,
    },
    { sequelize, tableName: 'users', underscored: true },
  );

  UserProfileM.init(
    {
      userId: { type: DataTypes.STRING(36), primaryKey: true, allowNull: false },
      displayName: { type: DataTypes.STRING(255), allowNull: true },
      bio: { type: DataTypes.TEXT, allowNull: true },
      company: { type: DataTypes.STRING(255), allowNull: true },
      jobTitle: { type: DataTypes.STRING(255), allowNull: true },
      website: { type: DataTypes.STRING(1024), allowNull: true },
      location: { type: DataTypes.STRING(255), allowNull: true },
      dateOfBirth: {
        type: DataTypes.BIGINT,
        allowNull: true,
        // mysql2 returns BIGINT as a string; the API promises a number.
        get(this: UserProfile) {
          const raw = this.getDataValue('dateOfBirth');
          return raw === null || raw === undefined ? null : Number(raw);
        },
      },
      data: jsonColumn('data', {}),
      ...timestamps,
    },
    { sequelize, tableName: 'user_profiles', underscored: true },
  );

  const bigintNumber = (name: 'expiresAt' | 'createdAt') => ({
    type: DataTypes.BIGINT,
    allowNull: false,
    get(this: OtpCode) {
      return Number(this.getDataValue(name));
    },
  });
  OtpCodeM.init(
    {
      id,
      userEmail: { type: DataTypes.STRING(255), allowNull: false },
      code: { type: DataTypes.STRING(128), allowNull: false },
      expiresAt: bigintNumber('expiresAt'),
      attempts: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      createdAt: { ...bigintNumber('createdAt'), defaultValue: () => Math.floor(Date.now() / 1000) },
    },
    { sequelize, tableName: 'otp_codes', underscored: true, timestamps: false },
  );

  AuthVerificationM.init(
    {
      id,
      identifier: { type: DataTypes.STRING(255), allowNull: false },
      value: { type: DataTypes.STRING(128), allowNull: false, unique: true },
      userEpoch: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      expiresAt: { type: DataTypes.DATE, allowNull: false },
      ...timestamps,
    },
    { sequelize, tableName: 'auth_verification', underscored: true },
  );

  PasswordResetTokenM.init(
    {
      id,
      userId: { type: DataTypes.STRING(36), allowNull: false },
      tokenHash: { type: DataTypes.STRING(128), allowNull: false, unique: true },
      expiresAt: { type: DataTypes.DATE, allowNull: false },
      usedAt: { type: DataTypes.DATE, allowNull: true },
      createdAt: timestamps.createdAt,
    },
    { sequelize, tableName: 'password_reset_tokens', underscored: true, updatedAt: false },
  );

  OAuthAccountM.init(
    {
      id,
      userId: { type: DataTypes.STRING(36), allowNull: false },
      provider: { type: DataTypes.STRING(32), allowNull: false },
      // Compared byte for byte (utf8mb4_bin on MySQL/MariaDB, migration 20261128000200): provider ids may be case-sensitive.
      providerAccountId: { type: DataTypes.STRING(255).BINARY, allowNull: false },
      email: { type: DataTypes.STRING(255), allowNull: true },
      ...timestamps,
    },
    { sequelize, tableName: 'oauth_accounts', underscored: true },
  );

  SettingM.init(
    {
      key: { type: DataTypes.STRING(100), primaryKey: true, allowNull: false },
      value: jsonColumn('value', null),
      updatedAt: timestamps.updatedAt,
    },
    { sequelize, tableName: 'settings', underscored: true, createdAt: false },
  );

  PluginM.init(
    {
      name: { type: DataTypes.STRING(64), primaryKey: true, allowNull: false },
      active: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      settings: jsonColumn('settings', {}),
      ...timestamps,
    },
    { sequelize, tableName: 'plugins', underscored: true },
  );

  ActivityLogM.init(
    {
      id: {
        type: DataTypes.BIGINT,
        primaryKey: true,
        autoIncrement: true,
        get(this: ActivityLog) {
          return Number(this.getDataValue('id'));
        },
      },
      action: { type: DataTypes.STRING(64), allowNull: false },
      userId: { type: DataTypes.STRING(36), allowNull: true },
      email: { type: DataTypes.STRING(255), allowNull: true },
      ip: { type: DataTypes.STRING(64), allowNull: true },
      userAgent: { type: DataTypes.STRING(512), allowNull: true },
      details: jsonColumn('details', null, true),
      createdAt: timestamps.createdAt,
    },
    { sequelize, tableName: 'activity_logs', underscored: true, updatedAt: false },
  );

  UserM.hasOne(UserProfileM, { foreignKey: 'userId', as: 'profile', onDelete: 'CASCADE' });
  UserProfileM.belongsTo(UserM, { foreignKey: 'userId' });
  UserM.hasMany(OAuthAccountM, { foreignKey: 'userId', as: 'oauthAccounts', onDelete: 'CASCADE' });

  return {
    User: UserM,
    UserProfile: UserProfileM,
    OtpCode: OtpCodeM,
    AuthVerification: AuthVerificationM,
    PasswordResetToken: PasswordResetTokenM,
    OAuthAccount: OAuthAccountM,
    Setting: SettingM,
    Plugin: PluginM,
    ActivityLog: ActivityLogM,
    ...defineContentModels(sequelize),
    RevokedToken: defineRevokedToken(sequelize),
    Session: defineSession(sequelize),
    EmailToken: defineEmailToken(sequelize),
    ...defineTwoFactor(sequelize),
    ...defineKeyModels(sequelize),
    Passkey: definePasskey(sequelize),
    ...defineOidcModels(sequelize),
    ...defineSsoModels(sequelize),
    ...defineOutboxModels(sequelize),
  };
}
