import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

/** One sign-in (CONTRACT 8): where and how it happened, when it was last used, when it ends. */
export class Session extends Model<InferAttributes<Session>, InferCreationAttributes<Session>> {
  declare id: string;
  declare userId: string;
  /** How the user signed in: password, otp, magic_link, github, google, passkey. */
  declare method: string;
  declare ip: string | null;
  declare userAgent: string | null;
  /** Read from the User-Agent at sign-in (ua-parser-js), e.g. "Chrome 131", "macOS 15". */
  declare browser: string | null;
  declare os: string | null;
  declare createdAt: Date;
  declare lastUsedAt: Date;
  /** The absolute end: no refresh goes past it, whatever the token lifetime. */
  declare expiresAt: Date;
  declare revokedAt: CreationOptional<Date | null>;
}

/** Binds a fresh Session subclass to the Sequelize instance (see defineModels). */
export function defineSession(sequelize: Sequelize): typeof Session {
  const SessionM = class extends Session {};
  SessionM.init(
    {
      id: { type: DataTypes.STRING(36), primaryKey: true, allowNull: false },
      userId: { type: DataTypes.STRING(36), allowNull: false },
      method: { type: DataTypes.STRING(32), allowNull: false },
      ip: { type: DataTypes.STRING(64), allowNull: true },
      userAgent: { type: DataTypes.STRING(512), allowNull: true },
      browser: { type: DataTypes.STRING(64), allowNull: true },
      os: { type: DataTypes.STRING(64), allowNull: true },
      createdAt: { type: DataTypes.DATE(3), allowNull: false },
      lastUsedAt: { type: DataTypes.DATE(3), allowNull: false },
      expiresAt: { type: DataTypes.DATE(3), allowNull: false },
      revokedAt: { type: DataTypes.DATE(3), allowNull: true },
    },
    { sequelize, tableName: 'sessions', underscored: true, timestamps: false },
  );
  return SessionM;
}
