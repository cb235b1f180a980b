import { Op, type Transaction } from 'sequelize';
import type { Models } from '../../../models';
import type { TokenService } from '../../../sessions/token.service';
import type { Revocations } from '../../../sessions/revocations';
import { PROVIDER_LABELS } from '../../../models/oauth-provider-names';
import { quotedName } from '../../../mail/security-notice-email';
import type { OAuthProviderName } from '../../../models/oauth-provider-names';
import { destroyGrants } from '../../oidc-provider/adapter';

/** Every kind of credential an account can hold (CONTRACT 18). A new kind is added here and registered below. */
export const CREDENTIAL_KIND_NAMES = ['password', 'sessions', 'second-factors', 'pending-enrolment', 'passkeys', 'api-keys', 'linked-accounts', 'oidc-grants'] as const;
export type CredentialKindName = (typeof CREDENTIAL_KIND_NAMES)[number];

/** What an event keeps while it ends a kind: the session that asked, the provider account that proved the address. */
export interface Keep {
  sessionId?: string;
  linkedAccount?: { provider: string; providerAccountId: string };
}

/** One kind of credential: where it lives, how a notice lists it, and how it ends. */
export interface CredentialKind {
  name: CredentialKindName;
  /** The tables holding it: the registry's test proves every table that belongs to a user is one kind's, or named as no credential. */
  tables: readonly string[];
  /** How a notice lists what the owner still has of this kind (one line each); absent: never listed. */
  describe?(userId: string): Promise<string[]>;
  /** Ends every credential of this kind of the user but the kept one, inside the caller's transaction; answers how many ended. */
  end(userId: string, transaction: Transaction, keep: Keep): Promise<number>;
}

/** How long an ended API key's revocation mark lives: beyond every cached verification of it (api-key-check's 300 s). */
const KEY_MARK_SECONDS = 300 + 60;

/**
 * The registry of credential kinds. Sessions end through the token service (epoch, rows, the verification
 * caches of every instance); API keys also get a revocation mark after commit, as a revocation by their owner
 * does; the rest are rows that go.
 */
export function createCredentialKinds(deps: {
  models: Models;
  tokens: Pick<TokenService, 'revokeAllForUser'>;
  revocations: Pick<Revocations, 'revoke'>;
}): Readonly<Record<CredentialKindName, CredentialKind>> {
  const { models, tokens, revocations } = deps;

  const kinds: CredentialKind[] = [
    {
      name: 'password',
      tables: [],
      async end(userId, transaction) {
        const [changed] = await models.User.update({ passwordHash: null }, { where: { id: userId, passwordHash: { [Op.ne]: null } }, transaction });
        return changed;
      },
    },
    {
      name: 'sessions',
      // Refresh chains and auth_session ride on the session row and the token epoch; OIDC grants are their own kind.
      tables: ['sessions'],
      async end(userId, transaction, keep) {
        const live = await models.Session.count({ where: { userId, revokedAt: null, ...(keep.sessionId ? { id: { [Op.ne]: keep.sessionId } } : {}) }, transaction });
        await tokens.revokeAllForUser(userId, { transaction, keepSessionId: keep.sessionId });
        return live;
      },
    },
    {
      name: 'second-factors',
      tables: ['two_factor', 'recovery_codes'],
      async end(userId, transaction) {
        const removed = await models.TwoFactor.destroy({ where: { userId }, transaction });
        await models.RecoveryCode.destroy({ where: { userId }, transaction });
        return removed;
      },
    },
    {
      name: 'pending-enrolment',
      tables: [],
      async end(userId, transaction) {
        const [changed] = await models.TwoFactor.update({ pendingSecret: null }, { where: { userId, pendingSecret: { [Op.ne]: null } }, transaction });
        return changed;
      },
    },
    {
      name: 'passkeys',
      tables: ['passkeys'],
      async describe(userId) {
        const rows = await models.Passkey.findAll({ attributes: ['name', 'createdAt'], where: { userId }, order: [['createdAt', 'ASC']] });
        return rows.map((row) => `Passkey added ${row.createdAt.toUTCString()}. ${quotedName(row.name)}`);
      },
      end: (userId, transaction) => models.Passkey.destroy({ where: { userId }, transaction }),
    },
    {
      name: 'api-keys',
      tables: ['api_keys'],
      async describe(userId) {
        const rows = await models.ApiKey.findAll({ attributes: ['prefix', 'name', 'createdAt'], where: { userId, revokedAt: null }, order: [['createdAt', 'ASC']] });
        return rows.map((row) => `API key ${row.prefix}… created ${row.createdAt.toUTCString()}. ${quotedName(row.name)}`);
      },
      async end(userId, transaction) {
        const rows = await models.ApiKey.findAll({ attributes: ['id'], where: { userId, revokedAt: null }, transaction });
        if (rows.length === 0) return 0;
        await models.ApiKey.update({ revokedAt: new Date() }, { where: { id: rows.map((row) => row.id) }, transaction });
        transaction.afterCommit(async () => {
          const until = Math.floor(Date.now() / 1000) + KEY_MARK_SECONDS;
          await Promise.all(rows.map((row) => revocations.revoke(row.id, until))).catch(() => undefined);
        });
        return rows.length;
      },
    },
    {
      name: 'linked-accounts',
      tables: ['oauth_accounts'],
      async describe(userId) {
        const rows = await models.OAuthAccount.findAll({ where: { userId }, order: [['createdAt', 'ASC']] });
        return rows.map((row) => `${PROVIDER_LABELS[row.provider as OAuthProviderName] ?? row.provider} account linked: ${row.email ?? row.providerAccountId}`);
      },
      async end(userId, transaction, keep) {
        const kept = keep.linkedAccount;
        const except = kept ? { [Op.not]: { provider: kept.provider, providerAccountId: kept.providerAccountId } } : {};
        return models.OAuthAccount.destroy({ where: { userId, ...except }, transaction });
      },
    },
    {
      // CONTRACT 14: what applications hold through the OpenID Provider (their codes and tokens), and the consent
      // that lets them back in without asking. A kept session keeps its grants; the consents go with the rest.
      name: 'oidc-grants',
      tables: ['oidc_grants', 'oauth_consents'],
      async end(userId, transaction, keep) {
        const except = keep.sessionId ? { sessionId: { [Op.ne]: keep.sessionId } } : {};
        const grants = await models.OidcGrant.findAll({ attributes: ['grantId'], where: { userId, ...except }, transaction });
        await destroyGrants(models, grants.map((grant) => grant.grantId), { transaction });
        await models.OidcGrant.destroy({ where: { userId, ...except }, transaction });
        if (!keep.sessionId) await models.OAuthConsent.destroy({ where: { userId }, transaction });
        return grants.length;
      },
    },
  ];
  return Object.freeze(Object.fromEntries(kinds.map((kind) => [kind.name, kind])) as Record<CredentialKindName, CredentialKind>);
}

/**
 * Tables that belong to a user and hold no credential: their data and history, and links or codes mailed to the
 * address (they open the account only to whoever reads that mail, and go when the address changes).
 */
export const NOT_CREDENTIALS: readonly string[] = ['users', 'user_profiles', 'activity_logs', 'email_tokens', 'password_reset_tokens'];
