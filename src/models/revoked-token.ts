import { DataTypes, Model, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

/** A logged-out token id, until the token could no longer be refreshed (`expiresAt`, epoch seconds). */
export class RevokedToken extends Model<InferAttributes<RevokedToken>, InferCreationAttributes<RevokedToken>> {
  declare jti: string;
  declare expiresAt: number;
  /** Whether the key-value store is known to hold this revocation too. */
  declare mirrored: boolean;
}

/** Binds a fresh RevokedToken subclass to the Sequelize instance (see defineModels). */
export function defineRevokedToken(sequelize: Sequelize): typeof RevokedToken {
  const RevokedTokenM = class extends RevokedToken {};
  RevokedTokenM.init(
    {
      jti: { type: DataTypes.STRING(36), primaryKey: true, allowNull: false },
      expiresAt: {
        type: DataTypes.BIGINT,
        allowNull: false,
        // mysql2 returns BIGINT as a string.
        get(this: RevokedToken) {
          return Number(this.getDataValue('expiresAt'));
        },
      },
      mirrored: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
    },
    { sequelize, tableName: 'revoked_tokens', underscored: true, timestamps: false },
  );
  return RevokedTokenM;
}
