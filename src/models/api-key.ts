import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { jsonColumn } from './json-column';

/** An API key (CONTRACT 11): only a keyed hash of the key is kept; the key itself is shown once. */
export class ApiKey extends Model<InferAttributes<ApiKey>, InferCreationAttributes<ApiKey>> {
  declare id: string;
  declare userId: string;
  declare name: string;
  /** The key's first characters (`ak_` and a few more), shown in lists so an owner can tell keys apart. */
  declare prefix: string;
  /** HMAC-SHA256 of the whole key under a key derived from JWT_SECRET (hex). */
  declare keyHash: string;
  /** What the key may do: a subset of the owner's role, re-checked against the current role on every request. */
  declare permissions: string[];
  declare createdAt: Date;
  declare expiresAt: Date | null;
  declare lastUsedAt: CreationOptional<Date | null>;
  declare revokedAt: CreationOptional<Date | null>;
}

/** Binds a fresh ApiKey subclass to the Sequelize instance (see defineModels). */
export function defineApiKey(sequelize: Sequelize): typeof ApiKey {
  const ApiKeyM = class extends ApiKey {};
  ApiKeyM.init(
    {
      id: { type: DataTypes.STRING(36), primaryKey: true, allowNull: false },
      userId: { type: DataTypes.STRING(36), allowNull: false },
      name: { type: DataTypes.STRING(100), allowNull: false },
      prefix: { type: DataTypes.STRING(16), allowNull: false },
      keyHash: { type: DataTypes.STRING(64), allowNull: false, unique: true },
      permissions: jsonColumn('permissions', []),
      createdAt: { type: DataTypes.DATE(3), allowNull: false },
      expiresAt: { type: DataTypes.DATE(3), allowNull: true },
      lastUsedAt: { type: DataTypes.DATE(3), allowNull: true },
      revokedAt: { type: DataTypes.DATE(3), allowNull: true },
    },
    { sequelize, tableName: 'api_keys', underscored: true, timestamps: false },
  );
  return ApiKeyM;
}
