"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.Content = exports.Collection = exports.ActivityLog = exports.Plugin = exports.Setting = exports.OAuthAccount = exports.PasswordResetToken = exports.AuthVerification = exports.OtpCode = exports.UserProfile = exports.User = exports.CONTENT_STATUSES = exports.ROLES = void 0;
exports.defineModels = defineModels;
const sequelize_1 = require("sequelize");
const json_column_1 = require("./json-column");
exports.ROLES = ['admin', 'editor', 'author', 'viewer'];
exports.CONTENT_STATUSES = ['draft', 'review', 'published'];
class User extends sequelize_1.Model {
}
exports.User = User;
class UserProfile extends sequelize_1.Model {
}
exports.UserProfile = UserProfile;
class OtpCode extends sequelize_1.Model {
}
exports.OtpCode = OtpCode;
class AuthVerification extends sequelize_1.Model {
}
exports.AuthVerification = AuthVerification;
class PasswordResetToken extends sequelize_1.Model {
}
exports.PasswordResetToken = PasswordResetToken;
class OAuthAccount extends sequelize_1.Model {
}
exports.OAuthAccount = OAuthAccount;
class Setting extends sequelize_1.Model {
}
exports.Setting = Setting;
class Plugin extends sequelize_1.Model {
}
exports.Plugin = Plugin;
class ActivityLog extends sequelize_1.Model {
}
exports.ActivityLog = ActivityLog;
class Collection extends sequelize_1.Model {
}
exports.Collection = Collection;
class Content extends sequelize_1.Model {
}
exports.Content = Content;
const id = { type: sequelize_1.DataTypes.STRING(36), primaryKey: true, allowNull: false };
const timestamps = {
    createdAt: { type: sequelize_1.DataTypes.DATE, allowNull: false },
    updatedAt: { type: sequelize_1.DataTypes.DATE, allowNull: false },
};
// Lists ordered newest first need sub-second order; DATE(3) makes Sequelize write the milliseconds
// (migration 20261123000100 widens the MariaDB columns to match).
const createdAtMilliseconds = { type: sequelize_1.DataTypes.DATE(3), allowNull: false };
/** Binds every model to the given Sequelize instance; the columns mirror the migrations. */
function defineModels(sequelize) {
    // Fresh subclasses per instance, so two Sequelize instances (a test's second app) never share bindings.
    const UserM = class extends User {
    };
    const UserProfileM = class extends UserProfile {
    };
    const OtpCodeM = class extends OtpCode {
    };
    const AuthVerificationM = class extends AuthVerification {
    };
    const PasswordResetTokenM = class extends PasswordResetToken {
    };
    const OAuthAccountM = class extends OAuthAccount {
    };
    const SettingM = class extends Setting {
    };
    const PluginM = class extends Plugin {
    };
    const ActivityLogM = class extends ActivityLog {
    };
    const CollectionM = class extends Collection {
    };
    const ContentM = class extends Content {
    };
    UserM.init({
        id,
        email: { type: sequelize_1.DataTypes.STRING(255), allowNull: false, unique: true },
        username: { type: sequelize_1.DataTypes.STRING(64), allowNull: false, unique: true },
        firstName: { type: sequelize_1.DataTypes.STRING(100), allowNull: true },
        lastName: { type: sequelize_1.DataTypes.STRING(100), allowNull: true },
        role: { type: sequelize_1.DataTypes.STRING(16), allowNull: false, defaultValue: 'viewer' },
        active: { type: sequelize_1.DataTypes.BOOLEAN, allowNull: false, defaultValue: true },
        passwordHash: { type: sequelize_1.DataTypes.STRING(255), allowNull: true },
        tokenEpoch: { type: sequelize_1.DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
        avatarUrl: { type: sequelize_1.DataTypes.STRING(1024), allowNull: true },
        lastLoginAt: { type: sequelize_1.DataTypes.DATE, allowNull: true },
        ...timestamps,
        createdAt: createdAtMilliseconds,
    }, { sequelize, tableName: 'users', underscored: true });
    UserProfileM.init({
        userId: { type: sequelize_1.DataTypes.STRING(36), primaryKey: true, allowNull: false },
        displayName: { type: sequelize_1.DataTypes.STRING(255), allowNull: true },
        bio: { type: sequelize_1.DataTypes.TEXT, allowNull: true },
        company: { type: sequelize_1.DataTypes.STRING(255), allowNull: true },
        jobTitle: { type: sequelize_1.DataTypes.STRING(255), allowNull: true },
        website: { type: sequelize_1.DataTypes.STRING(1024), allowNull: true },
        location: { type: sequelize_1.DataTypes.STRING(255), allowNull: true },
        dateOfBirth: {
            type: sequelize_1.DataTypes.BIGINT,
            allowNull: true,
            // mysql2 returns BIGINT as a string; the API promises a number.
            get() {
                const raw = this.getDataValue('dateOfBirth');
                return raw === null || raw === undefined ? null : Number(raw);
            },
        },
        data: (0, json_column_1.jsonColumn)('data', {}),
        ...timestamps,
    }, { sequelize, tableName: 'user_profiles', underscored: true });
    const bigintNumber = (name) => ({
        type: sequelize_1.DataTypes.BIGINT,
        allowNull: false,
        get() {
            return Number(this.getDataValue(name));
        },
    });
    OtpCodeM.init({
        id,
        userEmail: { type: sequelize_1.DataTypes.STRING(255), allowNull: false },
        code: { type: sequelize_1.DataTypes.STRING(128), allowNull: false },
        expiresAt: bigintNumber('expiresAt'),
        attempts: { type: sequelize_1.DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
        createdAt: { ...bigintNumber('createdAt'), defaultValue: () => Math.floor(Date.now() / 1000) },
    }, { sequelize, tableName: 'otp_codes', underscored: true, timestamps: false });
    AuthVerificationM.init({
        id,
        identifier: { type: sequelize_1.DataTypes.STRING(255), allowNull: false },
        value: { type: sequelize_1.DataTypes.STRING(128), allowNull: false, unique: true },
        expiresAt: { type: sequelize_1.DataTypes.DATE, allowNull: false },
        ...timestamps,
    }, { sequelize, tableName: 'auth_verification', underscored: true });
    PasswordResetTokenM.init({
        id,
        userId: { type: sequelize_1.DataTypes.STRING(36), allowNull: false },
        tokenHash: { type: sequelize_1.DataTypes.STRING(128), allowNull: false, unique: true },
        expiresAt: { type: sequelize_1.DataTypes.DATE, allowNull: false },
        usedAt: { type: sequelize_1.DataTypes.DATE, allowNull: true },
        createdAt: timestamps.createdAt,
    }, { sequelize, tableName: 'password_reset_tokens', underscored: true, updatedAt: false });
    OAuthAccountM.init({
        id,
        userId: { type: sequelize_1.DataTypes.STRING(36), allowNull: false },
        provider: { type: sequelize_1.DataTypes.STRING(32), allowNull: false },
        providerAccountId: { type: sequelize_1.DataTypes.STRING(255), allowNull: false },
        email: { type: sequelize_1.DataTypes.STRING(255), allowNull: true },
        ...timestamps,
    }, { sequelize, tableName: 'oauth_accounts', underscored: true });
    SettingM.init({
        key: { type: sequelize_1.DataTypes.STRING(100), primaryKey: true, allowNull: false },
        value: (0, json_column_1.jsonColumn)('value', null),
        updatedAt: timestamps.updatedAt,
    }, { sequelize, tableName: 'settings', underscored: true, createdAt: false });
    PluginM.init({
        name: { type: sequelize_1.DataTypes.STRING(64), primaryKey: true, allowNull: false },
        active: { type: sequelize_1.DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
        settings: (0, json_column_1.jsonColumn)('settings', {}),
        ...timestamps,
    }, { sequelize, tableName: 'plugins', underscored: true });
    ActivityLogM.init({
        id: {
            type: sequelize_1.DataTypes.BIGINT,
            primaryKey: true,
            autoIncrement: true,
            get() {
                return Number(this.getDataValue('id'));
            },
        },
        action: { type: sequelize_1.DataTypes.STRING(64), allowNull: false },
        userId: { type: sequelize_1.DataTypes.STRING(36), allowNull: true },
        email: { type: sequelize_1.DataTypes.STRING(255), allowNull: true },
        ip: { type: sequelize_1.DataTypes.STRING(64), allowNull: true },
        userAgent: { type: sequelize_1.DataTypes.STRING(512), allowNull: true },
        details: (0, json_column_1.jsonColumn)('details', null, true),
        createdAt: timestamps.createdAt,
    }, { sequelize, tableName: 'activity_logs', underscored: true, updatedAt: false });
    CollectionM.init({
        id,
        name: { type: sequelize_1.DataTypes.STRING(100), allowNull: false, unique: true },
        description: { type: sequelize_1.DataTypes.TEXT, allowNull: true },
        ...timestamps,
    }, { sequelize, tableName: 'collections', underscored: true });
    ContentM.init({
        id,
        title: { type: sequelize_1.DataTypes.STRING(255), allowNull: false },
        body: { type: sequelize_1.DataTypes.TEXT, allowNull: true },
        status: { type: sequelize_1.DataTypes.STRING(16), allowNull: false, defaultValue: 'draft' },
        collectionId: { type: sequelize_1.DataTypes.STRING(36), allowNull: true },
        authorId: { type: sequelize_1.DataTypes.STRING(36), allowNull: true },
        ...timestamps,
        createdAt: createdAtMilliseconds,
    }, { sequelize, tableName: 'content', underscored: true });
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
        Collection: CollectionM,
        Content: ContentM,
    };
}
//# sourceMappingURL=index.js.map