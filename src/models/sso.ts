import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

export const SSO_PROTOCOLS = ['oidc', 'saml'] as const;
export type SsoProtocol = (typeof SSO_PROTOCOLS)[number];

/** An enterprise identity provider (CONTRACT 15): its own columns per protocol, the others null. */
export class SsoProvider extends Model<InferAttributes<SsoProvider>, InferCreationAttributes<SsoProvider>> {
  declare id: string;
  declare slug: string;
  declare name: string;
  declare protocol: SsoProtocol;
  declare enforce: boolean;
  declare autoCreate: boolean;
  declare defaultRole: string;
  declare oidcIssuer: string | null;
  declare oidcClientId: string | null;
  /** Sealed (src/credentials/sealed-box.ts), bound to the row's id; never shown back. */
  declare oidcClientSecretSealed: string | null;
  declare oidcScopes: string | null;
  declare samlEntryPoint: string | null;
  declare samlIdpEntityId: string | null;
  declare samlCertificate: string | null;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

/** One email domain and the provider that owns it: the primary key makes "at most one provider" a database rule. */
export class SsoDomain extends Model<InferAttributes<SsoDomain>, InferCreationAttributes<SsoDomain>> {
  declare domain: string;
  declare providerId: string;
}

export interface SsoModels {
  SsoProvider: typeof SsoProvider;
  SsoDomain: typeof SsoDomain;
}

/** Binds fresh subclasses to the Sequelize instance (see defineModels); columns mirror migration 20261128005000. */
export function defineSsoModels(sequelize: Sequelize): SsoModels {
  const SsoProviderM = class extends SsoProvider {};
  SsoProviderM.init(
    {
      id: { type: DataTypes.STRING(36), primaryKey: true, allowNull: false },
      slug: { type: DataTypes.STRING(28), allowNull: false, unique: true },
      name: { type: DataTypes.STRING(100), allowNull: false },
      protocol: { type: DataTypes.STRING(8), allowNull: false },
      enforce: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      autoCreate: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      defaultRole: { type: DataTypes.STRING(32), allowNull: false, defaultValue: 'viewer' },
      oidcIssuer: { type: DataTypes.STRING(2048), allowNull: true },
      oidcClientId: { type: DataTypes.STRING(255), allowNull: true },
      oidcClientSecretSealed: { type: DataTypes.TEXT, allowNull: true },
      oidcScopes: { type: DataTypes.STRING(512), allowNull: true },
      samlEntryPoint: { type: DataTypes.STRING(2048), allowNull: true },
      samlIdpEntityId: { type: DataTypes.STRING(1024), allowNull: true },
      samlCertificate: { type: DataTypes.TEXT, allowNull: true },
      // Milliseconds: the OIDC strategy cache is keyed by updatedAt, and two saves within a second must differ.
      createdAt: { type: DataTypes.DATE(3) },
      updatedAt: { type: DataTypes.DATE(3) },
    },
    { sequelize, tableName: 'sso_providers', underscored: true },
  );
  const SsoDomainM = class extends SsoDomain {};
  SsoDomainM.init(
    {
      domain: { type: DataTypes.STRING(253), primaryKey: true, allowNull: false },
      providerId: { type: DataTypes.STRING(36), allowNull: false },
    },
    { sequelize, tableName: 'sso_domains', underscored: true, timestamps: false },
  );
  SsoProviderM.hasMany(SsoDomainM, { foreignKey: 'providerId', as: 'domains' });
  return { SsoProvider: SsoProviderM, SsoDomain: SsoDomainM };
}
