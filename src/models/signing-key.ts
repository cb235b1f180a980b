import { DataTypes, Model, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

/**
 * A token signing key of an asymmetric JWT_ALGORITHM (CONTRACT 11). The public half is published in the
 * JWKS; the private half is kept encrypted under a key derived from JWT_SECRET (see signing-keys.ts).
 */
export class SigningKey extends Model<InferAttributes<SigningKey>, InferCreationAttributes<SigningKey>> {
  declare kid: string;
  declare algorithm: string;
  /** The public JWK as JSON text (kty, crv / n, e, x, y; never private members). */
  declare publicJwk: string;
  /** `v1.<iv>.<tag>.<ciphertext>` (base64url): the PKCS#8 private key under AES-256-GCM, the kid as associated data. */
  declare privateKey: string;
  declare createdAt: Date;
  /**
   * Null while the key signs. Set when a newer key replaces it: the end of the last token it signed (its
   * lifetime and refresh grace after the rotation); it verifies and stays in the JWKS until then.
   */
  declare retiresAt: Date | null;
}

/** Binds a fresh SigningKey subclass to the Sequelize instance (see defineModels). */
export function defineSigningKey(sequelize: Sequelize): typeof SigningKey {
  const SigningKeyM = class extends SigningKey {};
  SigningKeyM.init(
    {
      kid: { type: DataTypes.STRING(64), primaryKey: true, allowNull: false },
      algorithm: { type: DataTypes.STRING(16), allowNull: false },
      publicJwk: { type: DataTypes.TEXT, allowNull: false },
      privateKey: { type: DataTypes.TEXT, allowNull: false },
      createdAt: { type: DataTypes.DATE(3), allowNull: false },
      retiresAt: { type: DataTypes.DATE(3), allowNull: true },
    },
    { sequelize, tableName: 'signing_keys', underscored: true, timestamps: false },
  );
  return SigningKeyM;
}
