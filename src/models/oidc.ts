import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { jsonColumn } from './json-column';

/** An application registered to sign its users in through this service (CONTRACT 14). */
export class OAuthClient extends Model<InferAttributes<OAuthClient>, InferCreationAttributes<OAuthClient>> {
  declare clientId: string;
  declare name: string;
  /** SHA-256 (hex) of the secret; null for a public client (a SPA or native app: PKCE alone). */
  declare secretHash: string | null;
  declare redirectUris: string[];
  declare postLogoutRedirectUris: string[];
  declare public: boolean;
  /** Signs in without a consent page (the organisation's own application). */
  declare firstParty: boolean;
  declare allowedScopes: string[];
  declare grantTypes: string[];
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

/** One stored artifact of oidc-provider (a session, grant, code, token, interaction), as its adapter keeps it. */
export class OidcPayload extends Model<InferAttributes<OidcPayload>, InferCreationAttributes<OidcPayload>> {
  declare model: string;
  declare id: string;
  declare payload: string;
  declare grantId: string | null;
  declare uid: string | null;
  declare userCode: string | null;
  declare expiresAt: Date | null;
  declare consumedAt: CreationOptional<Date | null>;
}

/** A provider grant and the sign-in session (CONTRACT 8) it belongs to: ending the session ends its tokens. */
export class OidcGrant extends Model<InferAttributes<OidcGrant>, InferCreationAttributes<OidcGrant>> {
  declare grantId: string;
  declare userId: string;
  declare clientId: string;
  declare sessionId: string;
  declare createdAt: CreationOptional<Date>;
}

/** The scopes a user allowed an application: the consent page is skipped while they cover the request. */
export class OAuthConsent extends Model<InferAttributes<OAuthConsent>, InferCreationAttributes<OAuthConsent>> {
  declare userId: string;
  declare clientId: string;
  declare scope: string;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

export interface OidcModels {
  OAuthClient: typeof OAuthClient;
  OidcPayload: typeof OidcPayload;
  OidcGrant: typeof OidcGrant;
  OAuthConsent: typeof OAuthConsent;
}

/** Binds fresh subclasses to the Sequelize instance (see defineModels). */
export function defineOidcModels(sequelize: Sequelize): OidcModels {
  const OAuthClientM = class extends OAuthClient {};
  OAuthClientM.init(
    {
      clientId: { type: DataTypes.STRING(64), primaryKey: true, allowNull: false },
      name: { type: DataTypes.STRING(255), allowNull: false },
      secretHash: { type: DataTypes.STRING(128), allowNull: true },
      redirectUris: jsonColumn('redirectUris', []),
      postLogoutRedirectUris: jsonColumn('postLogoutRedirectUris', []),
      public: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      firstParty: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      allowedScopes: jsonColumn('allowedScopes', []),
      grantTypes: jsonColumn('grantTypes', []),
      createdAt: { type: DataTypes.DATE(3) },
      updatedAt: { type: DataTypes.DATE(3) },
    },
    { sequelize, tableName: 'oauth_clients', underscored: true },
  );
  const OidcPayloadM = class extends OidcPayload {};
  OidcPayloadM.init(
    {
      model: { type: DataTypes.STRING(40), primaryKey: true, allowNull: false },
      id: { type: DataTypes.STRING(255), primaryKey: true, allowNull: false },
      payload: { type: DataTypes.TEXT, allowNull: false },
      grantId: { type: DataTypes.STRING(255), allowNull: true },
      uid: { type: DataTypes.STRING(255), allowNull: true },
      userCode: { type: DataTypes.STRING(255), allowNull: true },
      expiresAt: { type: DataTypes.DATE(3), allowNull: true },
      consumedAt: { type: DataTypes.DATE(3), allowNull: true },
    },
    { sequelize, tableName: 'oidc_payloads', underscored: true, timestamps: false },
  );
  const OidcGrantM = class extends OidcGrant {};
  OidcGrantM.init(
    {
      grantId: { type: DataTypes.STRING(255), primaryKey: true, allowNull: false },
      userId: { type: DataTypes.STRING(36), allowNull: false },
      clientId: { type: DataTypes.STRING(64), allowNull: false },
      sessionId: { type: DataTypes.STRING(36), allowNull: false },
      createdAt: { type: DataTypes.DATE(3) },
    },
    { sequelize, tableName: 'oidc_grants', underscored: true, updatedAt: false },
  );
  const OAuthConsentM = class extends OAuthConsent {};
  OAuthConsentM.init(
    {
      userId: { type: DataTypes.STRING(36), primaryKey: true, allowNull: false },
      clientId: { type: DataTypes.STRING(64), primaryKey: true, allowNull: false },
      scope: { type: DataTypes.STRING(512), allowNull: false },
      createdAt: { type: DataTypes.DATE(3) },
      updatedAt: { type: DataTypes.DATE(3) },
    },
    { sequelize, tableName: 'oauth_consents', underscored: true },
  );
  return { OAuthClient: OAuthClientM, OidcPayload: OidcPayloadM, OidcGrant: OidcGrantM, OAuthConsent: OAuthConsentM };
}
