import crypto from 'node:crypto';
import { QueryTypes, type Sequelize } from 'sequelize';
import type { Models } from '../../models';
import type { OAuthClient } from '../../models/oidc';
import type { ActivityService } from '../operations/activity.service';
import type { AdminAudit } from '../../http/request-context';
import { AppError } from '../../http/app-error';
import { destroyGrants } from './adapter';

export const OIDC_SCOPES = ['openid', 'profile', 'email', 'offline_access'] as const;
export const OIDC_GRANT_TYPES = ['authorization_code', 'refresh_token', 'client_credentials'] as const;

/** What a new application gets for what its registration leaves out (the settings page's form starts from these). */
export const CLIENT_DEFAULTS = {
  public: false,
  firstParty: false,
  allowedScopes: [...OIDC_SCOPES] as string[],
  grantTypes: ['authorization_code', 'refresh_token'] as string[],
} as const;

const MESSAGES = {
  notFound: 'Application not found',
  publicCredentials: 'client_credentials needs a confidential client',
  publicSecret: 'A public client has no secret',
} as const;

/** What an admin sends to register or change an application (validated at the edge). */
export interface ClientInput {
  name: string;
  redirectUris: string[];
  postLogoutRedirectUris?: string[];
  public?: boolean;
  firstParty?: boolean;
  allowedScopes?: string[];
  grantTypes?: string[];
}

/** An application as the API shows it: never its secret or the secret's hash. */
export interface ClientView {
  clientId: string;
  name: string;
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  public: boolean;
  firstParty: boolean;
  allowedScopes: string[];
  grantTypes: string[];
  createdAt: Date;
  updatedAt: Date;
}

/**
 * The registered client as every token, authorization and introspection request reads it: hand-written like
 * the adapter's statements (adapter.ts says why), read afresh each time so that a removed application or a new
 * secret holds at once on every instance. Booleans are 0/1 on both dialects, the lists JSON text (json-column.ts).
 */
const SELECT_CLIENT = `SELECT client_id, name, secret_hash, redirect_uris, post_logout_redirect_uris, public, allowed_scopes, grant_types
  FROM oauth_clients WHERE client_id = ?`;

interface ClientRow {
  client_id: string;
  name: string;
  secret_hash: string | null;
  redirect_uris: string;
  post_logout_redirect_uris: string;
  public: number | boolean;
  allowed_scopes: string;
  grant_types: string;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * CONTRACT 14's redirect-URI rule: absolute, no fragment, no wildcard; `https`, `http` on a loopback host
 * (RFC 8252 §7.3), or a private-use scheme of a native app (`com.example.app:/cb`, RFC 8252 §7.1). Null when
 * acceptable, else why not.
 */
export function redirectUriProblem(uri: string): string | null {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'must be an absolute URI';
  }
  if (uri.includes('#')) return 'must not have a fragment';
  if (uri.includes('*')) return 'must not have a wildcard';
  if (url.protocol === 'https:') return url.hostname ? null : 'needs a host';
  if (url.protocol === 'http:') return LOOPBACK_HOSTS.has(url.hostname) ? null : 'http only on a loopback host (127.0.0.1, [::1], localhost)';
  // A private-use scheme is a reverse domain name (RFC 8252 §7.1): at least one dot, never a web or script scheme.
  return /^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+:$/.test(url.protocol) ? null : 'must be https, http on a loopback host, or a private-use scheme (com.example.app:)';
}

/** Client secrets are 32 random bytes: a plain SHA-256 is enough to keep them unreadable at rest. */
export function hashClientSecret(secret: string): string {
  return crypto.hash('sha256', secret, 'hex');
}

function newSecret(): string {
  return `cs_${crypto.randomBytes(32).toString('base64url')}`;
}

export function presentClient(row: OAuthClient): ClientView {
  const { clientId, name, redirectUris, postLogoutRedirectUris, firstParty, allowedScopes, grantTypes, createdAt, updatedAt } = row;
  return { clientId, name, redirectUris, postLogoutRedirectUris, public: row.public, firstParty, allowedScopes, grantTypes, createdAt, updatedAt };
}

/**
 * Registered applications (CONTRACT 14): created, listed, changed and removed by admins, a confidential
 * client's secret shown once and stored hashed; removing one ends every grant and token it holds.
 */
export function createOAuthClientService(deps: { sequelize: Sequelize; models: Models; activity: ActivityService }) {
  const { sequelize, models, activity } = deps;

  function checked(input: ClientInput, isPublic: boolean): void {
    if (isPublic && input.grantTypes?.includes('client_credentials')) throw AppError.validation({ grantTypes: MESSAGES.publicCredentials });
  }

  async function find(clientId: string): Promise<OAuthClient> {
    const row = await models.OAuthClient.findByPk(clientId);
    if (!row) throw AppError.notFound(MESSAGES.notFound);
    return row;
  }

  async function create(input: ClientInput, audit: AdminAudit): Promise<{ client: ClientView; clientSecret?: string }> {
    const isPublic = input.public ?? CLIENT_DEFAULTS.public;
    checked(input, isPublic);
    const secret = isPublic ? undefined : newSecret();
    const row = await models.OAuthClient.create({
      clientId: crypto.randomBytes(16).toString('base64url'),
      name: input.name,
      secretHash: secret ? hashClientSecret(secret) : null,
      redirectUris: input.redirectUris,
      postLogoutRedirectUris: input.postLogoutRedirectUris ?? [],
      public: isPublic,
      firstParty: input.firstParty ?? CLIENT_DEFAULTS.firstParty,
      allowedScopes: input.allowedScopes ?? [...CLIENT_DEFAULTS.allowedScopes],
      grantTypes: input.grantTypes ?? [...CLIENT_DEFAULTS.grantTypes],
    });
    await activity.record({ action: 'oauth_client.created', userId: audit.actor.id, email: audit.actor.email, details: { clientId: row.clientId, name: row.name } }, audit.context);
    return { client: presentClient(row), ...(secret ? { clientSecret: secret } : {}) };
  }

  async function list(): Promise<ClientView[]> {
    const rows = await models.OAuthClient.findAll({ order: [['createdAt', 'ASC']] });
    return rows.map(presentClient);
  }

  async function get(clientId: string): Promise<ClientView> {
    return presentClient(await find(clientId));
  }

  async function update(clientId: string, input: Partial<ClientInput>, audit: AdminAudit): Promise<ClientView> {
    const row = await find(clientId);
    checked({ name: row.name, redirectUris: row.redirectUris, ...input, grantTypes: input.grantTypes ?? row.grantTypes }, row.public);
    const { name, redirectUris, postLogoutRedirectUris, firstParty, allowedScopes, grantTypes } = input;
    await row.update({ name, redirectUris, postLogoutRedirectUris, firstParty, allowedScopes, grantTypes });
    await activity.record({ action: 'oauth_client.updated', userId: audit.actor.id, email: audit.actor.email, details: { clientId, fields: Object.keys(input) } }, audit.context);
    return presentClient(row);
  }

  async function remove(clientId: string, audit: AdminAudit): Promise<void> {
    const row = await find(clientId);
    await sequelize.transaction(async (transaction) => {
      const grants = await models.OidcGrant.findAll({ attributes: ['grantId'], where: { clientId }, transaction });
      await destroyGrants(models, grants.map((grant) => grant.grantId), { transaction });
      await models.OidcGrant.destroy({ where: { clientId }, transaction });
      await models.OAuthConsent.destroy({ where: { clientId }, transaction });
      await row.destroy({ transaction });
    });
    await activity.record({ action: 'oauth_client.deleted', userId: audit.actor.id, email: audit.actor.email, details: { clientId, name: row.name } }, audit.context);
  }

  /** A new secret for a confidential client, shown once; the old one stops at once. */
  async function rotateSecret(clientId: string, audit: AdminAudit): Promise<{ client: ClientView; clientSecret: string }> {
    const row = await find(clientId);
    if (row.public) throw AppError.badRequest(MESSAGES.publicSecret);
    const secret = newSecret();
    await row.update({ secretHash: hashClientSecret(secret) });
    await activity.record({ action: 'oauth_client.updated', userId: audit.actor.id, email: audit.actor.email, details: { clientId, fields: ['secret'] } }, audit.context);
    return { client: presentClient(row), clientSecret: secret };
  }

  /**
   * The row as oidc-provider's client metadata. `client_secret` holds the hash: the provider compares the
   * presented secret through `compareClientSecret`, which provider.ts makes hash first.
   */
  async function metadata(clientId: string): Promise<Record<string, unknown> | undefined> {
    const [row] = await sequelize.query<ClientRow>(SELECT_CLIENT, { replacements: [clientId], type: QueryTypes.SELECT });
    if (!row) return undefined;
    const grantTypes = JSON.parse(row.grant_types) as string[];
    return {
      client_id: row.client_id,
      client_name: row.name,
      ...(Number(row.public) === 1 ? { token_endpoint_auth_method: 'none', application_type: 'native' } : { client_secret: row.secret_hash, token_endpoint_auth_method: 'client_secret_basic' }),
      redirect_uris: JSON.parse(row.redirect_uris) as string[],
      post_logout_redirect_uris: JSON.parse(row.post_logout_redirect_uris) as string[],
      grant_types: grantTypes,
      response_types: grantTypes.includes('authorization_code') ? ['code'] : [],
      scope: (JSON.parse(row.allowed_scopes) as string[]).join(' '),
      // CONTRACT 14: every ID token carries auth_time, not only those a max_age asked for.
      require_auth_time: true,
    };
  }

  return { create, list, get, update, remove, rotateSecret, metadata };
}

export type OAuthClientService = ReturnType<typeof createOAuthClientService>;
