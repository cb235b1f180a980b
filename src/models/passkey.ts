import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

/** A WebAuthn credential of a user (CONTRACT 10). Bytes are base64url text; see the migration for why. */
export class Passkey extends Model<InferAttributes<Passkey>, InferCreationAttributes<Passkey>> {
  declare id: string;
  declare userId: string;
  declare name: string;
  /** The credential id, base64url (what the browser's `rawId` and allowCredentials carry). */
  declare credentialId: string;
  /** SHA-256 of the credential id's bytes, lower-case hex: the unique lookup key. */
  declare credentialHash: string;
  /** The COSE public key, base64url. */
  declare publicKey: string;
  /** The signature counter last seen (0 for authenticators that keep none). */
  declare counter: number;
  /** JSON list of transports the browser reported (`["internal","hybrid"]`), or null. */
  declare transports: string | null;
  /** `singleDevice` or `multiDevice` (synced). */
  declare deviceType: string;
  declare backedUp: boolean;
  declare createdAt: Date;
  declare lastUsedAt: CreationOptional<Date | null>;
}

/** Binds a fresh Passkey subclass to the Sequelize instance (see defineModels). */
export function definePasskey(sequelize: Sequelize): typeof Passkey {
  const PasskeyM = class extends Passkey {};
  PasskeyM.init(
    {
      id: { type: DataTypes.STRING(36), primaryKey: true, allowNull: false },
      userId: { type: DataTypes.STRING(36), allowNull: false },
      name: { type: DataTypes.STRING(64), allowNull: false },
      credentialId: { type: DataTypes.TEXT, allowNull: false },
      credentialHash: { type: DataTypes.STRING(64), allowNull: false },
      publicKey: { type: DataTypes.TEXT, allowNull: false },
      // BIGINT comes back as a string from mysql2: read as a number (counters stay far below 2^53).
      counter: {
        type: DataTypes.BIGINT,
        allowNull: false,
        get(this: Passkey) {
          return Number(this.getDataValue('counter'));
        },
      },
      transports: { type: DataTypes.STRING(255), allowNull: true },
      deviceType: { type: DataTypes.STRING(32), allowNull: false },
      backedUp: { type: DataTypes.BOOLEAN, allowNull: false },
      createdAt: { type: DataTypes.DATE(3), allowNull: false },
      lastUsedAt: { type: DataTypes.DATE(3), allowNull: true },
    },
    { sequelize, tableName: 'passkeys', underscored: true, timestamps: false },
  );
  return PasskeyM;
}
