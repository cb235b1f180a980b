import { Op, type Sequelize, type Transaction } from 'sequelize';
import type { Models } from '../../models';
import { preparedStatements } from '../../db/prepared-statements';
import { fromSqlDate } from '../../db/sql-date';

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

/*
 * The statements every token request runs (a code exchange reads the code, the provider's session by its uid
 * and the grant, marks the code used and stores the access token's record; a refresh likewise), written by hand as
 * auth-user-records.ts's read is: through Sequelize's models each cost about 1 ms of CPU beside the statement
 * itself (SQLite; profiled under the bench's token load, where they were the largest part of a request), this
 * way about a tenth, and as prepared statements (prepared-statements.ts) less again. Identifiers unquoted for the
 * reason given there. The upsert keeps `consumed_at` as the model's did (it names the same columns), and both
 * forms are one atomic statement.
 */
const SELECT_PAYLOAD = {
  id: 'SELECT payload, expires_at, consumed_at FROM oidc_payloads WHERE model = ? AND id = ?',
  uid: 'SELECT payload, expires_at, consumed_at FROM oidc_payloads WHERE model = ? AND uid = ?',
};
const CONSUME = 'UPDATE oidc_payloads SET consumed_at = ? WHERE model = ? AND id = ? AND consumed_at IS NULL';
const UPSERT_COLUMNS = 'INSERT INTO oidc_payloads (model, id, payload, grant_id, uid, user_code, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)';
const UPSERT = {
  sqlite: `${UPSERT_COLUMNS} ON CONFLICT (model, id) DO UPDATE SET payload = excluded.payload, grant_id = excluded.grant_id, uid = excluded.uid, user_code = excluded.user_code, expires_at = excluded.expires_at`,
  mysql: `${UPSERT_COLUMNS} ON DUPLICATE KEY UPDATE payload = VALUES(payload), grant_id = VALUES(grant_id), uid = VALUES(uid), user_code = VALUES(user_code), expires_at = VALUES(expires_at)`,
};

/** A row as SELECT_PAYLOAD reads it: dates as SQLite's text or mysql2's Date. */
interface PayloadRow {
  payload: string;
  expires_at: string | Date | null;
  consumed_at: string | Date | null;
}

/**
 * oidc-provider's storage (its `Adapter` interface, one instance per model name) on the service's database:
 * codes, sessions, grants, tokens and interactions are rows of `oidc_payloads`, so they survive restarts and
 * every instance sees them (an authorization begun on one finishes on another). The database rather than the
 * key-value store, even for the minute-long codes: the in-process store is one process only, and a code or an
 * interaction lost with a Redis failover would end a sign-in half way. Clients are not stored here: they are
 * read from `oauth_clients`, the table the admin API writes.
 */
export function createOidcAdapter(sequelize: Sequelize, models: Models, clientMetadata: ClientMetadataSource, hooks: AdapterHooks) {
  const { OidcPayload } = models;
  const upsertStatement = sequelize.getDialect() === 'sqlite' ? UPSERT.sqlite : UPSERT.mysql;
  const statements = preparedStatements(sequelize);

  function live(row: { payload: string; expiresAt: Date | null; consumedAt: Date | null } | null): StoredPayload | undefined {
    if (!row || (row.expiresAt && row.expiresAt.getTime() <= Date.now())) return undefined;
    const payload = JSON.parse(row.payload) as StoredPayload;
    return row.consumedAt ? { ...payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) } : payload;
  }

  async function findBy(column: keyof typeof SELECT_PAYLOAD, model: string, value: string): Promise<StoredPayload | undefined> {
    const [row] = await statements.select<PayloadRow>(SELECT_PAYLOAD[column], [model, value]);
    const date = (value: string | Date | null) => (value === null ? null : fromSqlDate(value));
    return row ? live({ payload: row.payload, expiresAt: date(row.expires_at), consumedAt: date(row.consumed_at) }) : undefined;
  }

  return class OidcAdapter {
    constructor(readonly name: string) {}

    async upsert(id: string, payload: StoredPayload, expiresIn?: number): Promise<void> {
      const expiresAt = expiresIn ? new Date(Date.now() + expiresIn * 1000) : null;
      await statements.write(upsertStatement, [this.name, id, JSON.stringify(payload), payload.grantId ?? null, payload.uid ?? null, payload.userCode ?? null, expiresAt]);
    }

    async find(id: string): Promise<StoredPayload | undefined> {
      if (this.name === 'Client') return withoutPublicClientCredentials(await clientMetadata(id));
      if (JWT_TOKEN_MODELS.has(this.name)) {
        // The bare `jti` is readable inside the JWT by whoever holds it: only the signed token itself is accepted.
        const jti = hooks.accessTokenId(id);
        return jti ? findBy('id', this.name, jti) : undefined;
      }
      return findBy('id', this.name, id);
    }

    async findByUid(uid: string): Promise<StoredPayload | undefined> {
      return findBy('uid', this.name, uid);
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
      const { changes } = await statements.write(CONSUME, [new Date(), this.name, id]);
      if (changes > 0) return;
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
