import crypto from 'node:crypto';
import { Op, type Sequelize } from 'sequelize';
import type { Models, Role } from '../../models';
import type { ApiKey } from '../../models/credential-keys';
import type { AdminAudit } from '../../http/request-context';
import { AppError } from '../../http/app-error';
import { can, PERMISSIONS, type Permission } from '../../access/permissions';
import type { ApiKeyHasher } from '../../credentials/api-keys';
import type { ApiKeyVerifier } from '../../sessions/api-key-check';
import type { Revocations } from '../../sessions/revocations';
import type { ActivityService } from '../operations/activity.service';
import type { SecurityNotices } from './security-notices';
import type { CredentialSet } from './credential-set/credential-set';
import type { Events } from '../operations/webhooks.service';
import { changeWithEvent } from '../operations/event-transaction';

/** Live keys one user may hold: enough for every script and job, few enough to list on one card. */
export const API_KEYS_PER_USER = 50;
/** The longest expiry a key may be given (ten years); none at all is allowed too. */
export const API_KEY_MAX_DAYS = 3650;
/** How long a revocation mark is kept: longer than any cached verification of the key can live. */
const REVOCATION_MARK_SECONDS = 300 + 60;

export const API_KEY_SERVICE_MESSAGES = {
  notYourRole: 'must be permissions your role holds',
  tooMany: `You already have ${API_KEYS_PER_USER} API keys: revoke one first`,
  notFound: 'API key not found',
} as const;

/** A key as CONTRACT 11 answers it: never the key, never its hash. */
export interface ApiKeyView {
  id: string;
  name: string;
  prefix: string;
  permissions: Permission[];
  createdAt: Date;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
}

export interface ApiKeyInput {
  name: string;
  permissions?: string[];
  expiresInDays?: number;
}

function toView(row: ApiKey): ApiKeyView {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    permissions: row.permissions as Permission[],
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
    lastUsedAt: row.lastUsedAt ?? null,
  };
}

/** Every permission the role holds: a key's default, and the most it may be given. */
export function rolePermissions(role: Role): Permission[] {
  return PERMISSIONS.filter((permission) => can(role, permission));
}

/**
 * API keys of CONTRACT 11: made (shown once), listed and revoked by their owner, listed and revoked by an
 * admin. A revocation holds at once on every instance: the row is marked, a revocation mark goes to the
 * store (checked with the cache entry on every request) and the cached entry is dropped.
 */
export function createApiKeyService(deps: {
  sequelize: Sequelize;
  models: Models;
  hasher: ApiKeyHasher;
  verifier: Pick<ApiKeyVerifier, 'forget'>;
  revocations: Pick<Revocations, 'revoke'>;
  activity: ActivityService;
  notices: Pick<SecurityNotices, 'send'>;
  /** An unverified account makes no key (CONTRACT 18). */
  credentials: Pick<CredentialSet, 'assertMayAdd'>;
  /** CONTRACT 16: api_key.created and api_key.revoked, in the transaction that writes the row. */
  events: Pick<Events, 'recordForUser' | 'listens'>;
}) {
  const { sequelize, models, hasher, verifier, revocations, activity, notices, credentials, events } = deps;

  /** Live keys: not revoked (expired ones stay listed, marked by their expiry, until revoked). */
  const live = (userId: string) => ({ userId, revokedAt: null });

  async function create(owner: { id: string; email: string; role: Role }, input: ApiKeyInput, audit: AdminAudit): Promise<{ apiKey: ApiKeyView; key: string }> {
    await credentials.assertMayAdd(owner.id);
    const allowed = rolePermissions(owner.role);
    const permissions = input.permissions ?? allowed;
    if (permissions.some((permission) => !(allowed as string[]).includes(permission))) {
      throw AppError.validation({ permissions: API_KEY_SERVICE_MESSAGES.notYourRole });
    }
    if ((await models.ApiKey.count({ where: live(owner.id) })) >= API_KEYS_PER_USER) throw AppError.conflict(API_KEY_SERVICE_MESSAGES.tooMany);
    const { key, prefix, hash } = hasher.generate();
    const createdAt = new Date();
    const expiresAt = input.expiresInDays === undefined ? null : new Date(createdAt.getTime() + input.expiresInDays * 86_400_000);
    const detailsOf = (row: ApiKey) => ({ keyId: row.id, name: row.name, prefix, permissions: row.permissions, expiresAt: row.expiresAt?.toISOString() ?? null });
    const row = await changeWithEvent(
      { sequelize, events },
      'api_key.created',
      (transaction) =>
        models.ApiKey.create(
          { id: crypto.randomUUID(), userId: owner.id, name: input.name, prefix, keyHash: hash, permissions: [...new Set(permissions)], createdAt, expiresAt },
          { transaction },
        ),
      (made, transaction) => events.recordForUser('api_key.created', owner.id, { apiKey: detailsOf(made), actor: audit.actor }, { transaction }),
    );
    await activity.record({ action: 'api_key.created', userId: owner.id, email: owner.email, details: detailsOf(row) }, audit.context);
    // A key acts as its owner without a sign-in: one the owner did not make must not go unseen (CONTRACT 11, 18).
    notices.send(owner.email, {
      subject: 'An API key was created for your account',
      summary: `An API key was created for your account (${owner.email}): programs holding it can act as you.`,
      facts: [
        `Permissions: ${row.permissions.length > 0 ? row.permissions.join(', ') : 'none (it can only read your own account)'}`,
        `Expires: ${row.expiresAt ? row.expiresAt.toUTCString() : 'never'}`,
      ],
      context: audit.context,
      advice: 'If this was not you, revoke the key on your profile, change your password and sign out your other sessions.',
      chosenName: row.name,
    });
    return { apiKey: toView(row), key };
  }

  async function list(userId: string): Promise<ApiKeyView[]> {
    const rows = await models.ApiKey.findAll({ where: live(userId), order: [['createdAt', 'DESC'], ['id', 'DESC']] });
    return rows.map(toView);
  }

  /** Revokes one of the user's keys; false when the user has no live key of that id. */
  async function revoke(userId: string, keyId: string, audit: AdminAudit): Promise<boolean> {
    const row = await models.ApiKey.findOne({ where: { id: keyId, ...live(userId) } });
    if (!row) return false;
    const changed = await changeWithEvent(
      { sequelize, events },
      'api_key.revoked',
      async (transaction) => (await models.ApiKey.update({ revokedAt: new Date() }, { where: { id: keyId, revokedAt: { [Op.is]: null } }, transaction }))[0],
      async (count, transaction) => {
        if (count > 0) await events.recordForUser('api_key.revoked', userId, { apiKey: { keyId, name: row.name }, actor: audit.actor }, { transaction });
      },
    );
    if (changed === 0) return false;
    // After the commit: the mark's database mirror is a write of its own (on SQLite it would wait for the transaction).
    await revocations.revoke(keyId, Math.floor(Date.now() / 1000) + REVOCATION_MARK_SECONDS);
    await verifier.forget(row.keyHash);
    const details = { keyId, name: row.name, ownerId: userId };
    await activity.record({ action: 'api_key.revoked', userId: audit.actor.id, email: audit.actor.email, details }, audit.context);
    return true;
  }

  return { create, list, revoke };
}

export type ApiKeyService = ReturnType<typeof createApiKeyService>;
