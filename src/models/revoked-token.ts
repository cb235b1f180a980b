import { DataTypes, Model, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

/** A revoked token id (jti) or session id (sid), until its tokens could no longer be refreshed (`expiresAt`, epoch seconds). */
export class RevokedToken extends Model<InferAttributes<RevokedToken>, InferCreationAttributes<RevokedToken>> {
  declare jti: string;
  declare expiresAt: number;
  /** Whether the key-value store is known to hold this revocation too. */
  declare mirrored: boolean;
  /** When the revocation takes effect (epoch seconds): later than now for a token a refresh superseded; null: at once. */
  declare effectiveAt: number | null;
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
      effectiveAt: {
        type: DataTypes.BIGINT,
        allowNull: true,
        get(this: RevokedToken) {
          const value = this.getDataValue('effectiveAt');
          return value === null || value === undefined ? null : Number(value);
        },
      },
    },
    { sequelize, tableName: 'revoked_tokens', underscored: true, timestamps: false },
  );
  return RevokedTokenM;
}
