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

/**
 * oidc-provider's storage (its `Adapter` interface, one instance per model name) on the service's database:
 * codes, sessions, grants, tokens and interactions are rows of `oidc_payloads`, so they survive restarts and
 * every instance sees them (an authorization begun on one finishes on another). The database rather than the
 * key-value store, even for the minute-long codes: the in-process store is one process only, and a code or an
 * interaction lost with a Redis failover would end a sign-in half way. Clients are not stored here: they are
 * read from `oauth_clients`, the table the admin API writes.
 */
export function createOidcAdapter(models: Models, clientMetadata: ClientMetadataSource) {
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
      if (this.name === 'Client') return clientMetadata(id);
      return live(await OidcPayload.findOne({ where: { model: this.name, id } }));
    }

    async findByUid(uid: string): Promise<StoredPayload | undefined> {
      return live(await OidcPayload.findOne({ where: { model: this.name, uid } }));
    }

    async findByUserCode(userCode: string): Promise<StoredPayload | undefined> {
      return live(await OidcPayload.findOne({ where: { model: this.name, userCode } }));
    }

    /** Marks the artifact used; a second redemption sees `consumed` and the provider ends the grant's tokens. */
    async consume(id: string): Promise<void> {
      await OidcPayload.update({ consumedAt: new Date() }, { where: { model: this.name, id, consumedAt: null } });
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
