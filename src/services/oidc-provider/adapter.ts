import { Op, type Transaction } from 'sequelize';
import type { Models } from '../../models';

/** What oidc-provider stores: a JSON object with, for some models, the fields the adapter indexes. */
export interface StoredPayload {
  grantId?: string;
  uid?: string;
  userCode?: string;
  consumed?: number;
  [field: string]: unknown;
}

/** The registered client as oidc-provider reads its metadata (the clients service maps our rows to it). */
export type ClientMetadataSource = (clientId: string) => Promise<Record<string, unknown> | undefined>;

/** What the adapter needs from the provider: reading access token JWTs, and the answer to a lost consume race. */
export interface AdapterHooks {
  /** The `jti` of an access token JWT the provider signed, or undefined for anything else. */
  accessTokenId(value: string): string | undefined;
  /** Called when a code or refresh token was consumed by a concurrent request; answers the error to throw. */
  consumedTwice(grantId: string | undefined, model: string): Promise<Error>;
}

/**
 * A public client proves nothing about itself at the token endpoint, so it never holds the client_credentials
 * grant (CONTRACT 14), whatever its row lists; the provider then answers it `unauthorized_client`.
 */
function withoutPublicClientCredentials(metadata: Record<string, unknown> | undefined) {
  if (!metadata || metadata.token_endpoint_auth_method !== 'none' || !Array.isArray(metadata.grant_types)) return metadata;
  return { ...metadata, grant_types: (metadata.grant_types as string[]).filter((type) => type !== 'client_credentials') };
}

/** Access tokens are JWTs (provider.ts stores each one's record under its `jti`): found by the JWT only. */
const JWT_TOKEN_MODELS = new Set(['AccessToken', 'ClientCredentials']);

/**
 * oidc-provider's storage (its `Adapter` interface, one instance per model name) on the service's database:
 * codes, sessions, grants, tokens and interactions are rows of `oidc_payloads`, so they survive restarts and
 * every instance sees them (an authorization begun on one finishes on another). The database rather than the
 * key-value store, even for the minute-long codes: the in-process store is one process only, and a code or an
 * interaction lost with a Redis failover would end a sign-in half way. Clients are not stored here: they are
 * read from `oauth_clients`, the table the admin API writes.
 */
export function createOidcAdapter(models: Models, clientMetadata: ClientMetadataSource, hooks: AdapterHooks) {
  const { OidcPayload } = models;

  function live(row: InstanceType<typeof OidcPayload> | null): StoredPayload | undefined {
    if (!row || (row.expiresAt && row.expiresAt.getTime() <= Date.now())) return undefined;
    const payload = JSON.parse(row.payload) as StoredPayload;
    return row.consumedAt ? { ...payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) } : payload;
  }

  return class OidcAdapter {
    constructor(readonly name: string) {}

    async upsert(id: string, payload: StoredPayload, expiresIn?: number): Promise<void> {
      await OidcPayload.upsert({
        model: this.name,
        id,
        payload: JSON.stringify(payload),
        grantId: payload.grantId ?? null,
        uid: payload.uid ?? null,
        userCode: payload.userCode ?? null,
        expiresAt: expiresIn ? new Date(Date.now() + expiresIn * 1000) : null,
      });
    }

    async find(id: string): Promise<StoredPayload | undefined> {
      if (this.name === 'Client') return withoutPublicClientCredentials(await clientMetadata(id));
      if (JWT_TOKEN_MODELS.has(this.name)) {
        // The bare `jti` is readable inside the JWT by whoever holds it: only the signed token itself is accepted.
        const jti = hooks.accessTokenId(id);
        return jti ? live(await OidcPayload.findOne({ where: { model: this.name, id: jti } })) : undefined;
      }
      return live(await OidcPayload.findOne({ where: { model: this.name, id } }));
    }

    async findByUid(uid: string): Promise<StoredPayload | undefined> {
      return live(await OidcPayload.findOne({ where: { model: this.name, uid } }));
    }

    async findByUserCode(userCode: string): Promise<StoredPayload | undefined> {
      return live(await OidcPayload.findOne({ where: { model: this.name, userCode } }));
    }

    /**
     * Marks the artifact used; a later redemption sees `consumed` and the provider ends the grant's tokens. Two
     * redemptions racing both read it unused: the one whose write changes nothing lost, and is reuse too (the
     * grant ends, and that request gets invalid_grant instead of a second set of tokens).
     */
    async consume(id: string): Promise<void> {
      const [changed] = await OidcPayload.update({ consumedAt: new Date() }, { where: { model: this.name, id, consumedAt: null } });
      if (changed > 0) return;
      const row = await OidcPayload.findOne({ attributes: ['grantId'], where: { model: this.name, id } });
      const grantId = row?.grantId ?? undefined;
      if (grantId) await destroyGrants(models, [grantId]);
      throw await hooks.consumedTwice(grantId, this.name);
    }

    async destroy(id: string): Promise<void> {
      await OidcPayload.destroy({ where: { model: this.name, id } });
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await OidcPayload.destroy({ where: { grantId } });
    }
  };
}

/** Removes every stored artifact of the given grants (codes, tokens, the grant itself), inside a transaction when given. */
export async function destroyGrants(models: Models, grantIds: string[], options: { transaction?: Transaction } = {}): Promise<void> {
  if (grantIds.length === 0) return;
  await models.OidcPayload.destroy({ where: { [Op.or]: [{ grantId: grantIds }, { model: 'Grant', id: grantIds }] }, ...options });
}
