import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

/** What an emailed link proves: the account's own address (`verify`) or a new one it moves to (`change`). */
export type EmailTokenPurpose = 'verify' | 'change';

/** A single-use link mailed to prove an address (CONTRACT 12); only the token's SHA-256 is stored. */
export class EmailToken extends Model<InferAttributes<EmailToken>, InferCreationAttributes<EmailToken>> {
  declare id: string;
  declare userId: string;
  declare purpose: EmailTokenPurpose;
  /** The address a `change` link moves the account to; null for `verify`. */
  declare newEmail: CreationOptional<string | null>;
  declare tokenHash: string;
  /** The session that asked for a change: the one kept signed in once it is made. */
  declare sessionId: CreationOptional<string | null>;
  declare expiresAt: Date;
  declare createdAt: CreationOptional<Date>;
}

/** Binds a fresh EmailToken subclass to the Sequelize instance (see defineModels). */
export function defineEmailToken(sequelize: Sequelize): typeof EmailToken {
  const EmailTokenM = class extends EmailToken {};
  EmailTokenM.init(
    {
      id: { type: DataTypes.STRING(36), primaryKey: true, allowNull: false },
      userId: { type: DataTypes.STRING(36), allowNull: false },
      purpose: { type: DataTypes.STRING(16), allowNull: false },
      newEmail: { type: DataTypes.STRING(255), allowNull: true },
      tokenHash: { type: DataTypes.STRING(64), allowNull: false, unique: true },
      sessionId: { type: DataTypes.STRING(36), allowNull: true },
      expiresAt: { type: DataTypes.DATE(3), allowNull: false },
      createdAt: { type: DataTypes.DATE(3), allowNull: false },
    },
    { sequelize, tableName: 'email_tokens', underscored: true, updatedAt: false },
  );
  return EmailTokenM;
}
