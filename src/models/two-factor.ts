import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

/** A user's TOTP second factor (CONTRACT 9): one row per user, its secrets sealed (src/credentials/totp.ts). */
export class TwoFactor extends Model<InferAttributes<TwoFactor>, InferCreationAttributes<TwoFactor>> {
  declare userId: string;
  /** The confirmed secret, sealed; null until enrolment is confirmed with a code. */
  declare secret: string | null;
  /** A secret handed out by setup and not yet confirmed, sealed. */
  declare pendingSecret: string | null;
  declare enabledAt: Date | null;
  /** The newest time step a code was accepted for: a code of that step or older is refused (no replay). */
  declare lastTimeStep: number | null;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

/** One recovery code of a user: HMAC only, spent once (usedAt). */
export class RecoveryCode extends Model<InferAttributes<RecoveryCode>, InferCreationAttributes<RecoveryCode>> {
  declare id: string;
  declare userId: string;
  declare codeHash: string;
  declare usedAt: Date | null;
  declare createdAt: CreationOptional<Date>;
}

/** Binds fresh TwoFactor and RecoveryCode subclasses to the Sequelize instance (see defineModels). */
export function defineTwoFactor(sequelize: Sequelize): { TwoFactor: typeof TwoFactor; RecoveryCode: typeof RecoveryCode } {
  const TwoFactorM = class extends TwoFactor {};
  TwoFactorM.init(
    {
      userId: { type: DataTypes.STRING(36), primaryKey: true, allowNull: false },
      secret: { type: DataTypes.STRING(255), allowNull: true },
      pendingSecret: { type: DataTypes.STRING(255), allowNull: true },
      enabledAt: { type: DataTypes.DATE(3), allowNull: true },
      lastTimeStep: { type: DataTypes.BIGINT, allowNull: true, get() { const raw = this.getDataValue('lastTimeStep'); return raw === null ? null : Number(raw); } },
      createdAt: { type: DataTypes.DATE(3), allowNull: false },
      updatedAt: { type: DataTypes.DATE(3), allowNull: false },
    },
    { sequelize, tableName: 'two_factor', underscored: true },
  );
  const RecoveryCodeM = class extends RecoveryCode {};
  RecoveryCodeM.init(
    {
      id: { type: DataTypes.STRING(36), primaryKey: true, allowNull: false },
      userId: { type: DataTypes.STRING(36), allowNull: false },
      codeHash: { type: DataTypes.STRING(64), allowNull: false },
      usedAt: { type: DataTypes.DATE(3), allowNull: true },
      createdAt: { type: DataTypes.DATE(3), allowNull: false },
    },
    { sequelize, tableName: 'recovery_codes', underscored: true, updatedAt: false },
  );
  return { TwoFactor: TwoFactorM, RecoveryCode: RecoveryCodeM };
}

/** What defineTwoFactor adds to Models (src/models/index.ts extends it). */
export interface TwoFactorModels {
  TwoFactor: typeof TwoFactor;
  RecoveryCode: typeof RecoveryCode;
}
