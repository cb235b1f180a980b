import { Op, UniqueConstraintError, col, fn, where as sqlWhere, type Sequelize, type Transaction } from 'sequelize';
import type { Models, Role } from '../../models';
import type { TokenService } from '../../sessions/token.service';
import type { ActivityService } from '../operations/activity.service';
import type { CredentialSet } from '../security/credential-set/credential-set';
import { USER_MESSAGES, type NewUserInput, type UserService } from './user.service';
import { createUserList, toAdminUserView, type AdminUserView, type UserListQuery } from './user-list';
import type { AdminAudit } from '../../http/request-context';
import { AppError } from '../../http/app-error';
import { transactionWithRetry } from '../../db/transaction-retry';
import { readsMayLag } from '../../db/read-replicas';
import { eventUser } from '../operations/webhook-events';
import type { Events } from '../operations/webhooks.service';

export type { AdminUserView, UserListQuery } from './user-list';

export const USER_ADMIN_MESSAGES = {
  notFound: 'User not found',
  lastAdmin: 'This change would leave no active admin: promote or activate another admin first',
  // The one message for a taken email or username, whichever service finds it (forms match on it).
  duplicate: USER_MESSAGES.duplicate,
} as const;

export interface AdminUserCreate {
  email: string;
  password?: string;
  username?: string;
  firstName?: string | null;
  lastName?: string | null;
  role?: Role;
}

export interface AdminUserChanges {
  role?: Role;
  active?: boolean;
  username?: string;
  firstName?: string | null;
  lastName?: string | null;
  /** An admin's word that the address is the user's (true), or that it must be proven again (false). */
  emailVerified?: boolean;
}

const NAME_FIELDS = ['username', 'firstName', 'lastName'] as const;

/** Whether another user than `exceptId` has the username, case-insensitively on both databases (SQLite's index is not). */
export async function usernameTakenByAnother(models: Models, username: string, exceptId: string, transaction: Transaction): Promise<boolean> {
  const found = await models.User.findOne({
    attributes: ['id'],
    where: { [Op.and]: [sqlWhere(fn('lower', col('username')), username.toLowerCase()), { id: { [Op.ne]: exceptId } }] },
    transaction,
  });
  return found !== null;
}

/**
 * User administration (`manage:users`). The invariant it keeps: there is always at least one active
 * admin. Every change that could remove one (demotion, deactivation, deletion) locks the set of active
 * admins (`SELECT … FOR UPDATE` on MariaDB; SQLite transactions are IMMEDIATE, i.e. serialised) and
 * counts it in the same transaction as the write, so two admins demoting each other at once cannot
 * both succeed. Role changes, deactivation and deletion end the user's tokens at once.
 */
export function createUserAdminService(deps: {
  sequelize: Sequelize;
  models: Models;
  tokens: Pick<TokenService, 'userChanged'>;
  /** Deactivation, role changes and deletion end credentials through the one table (CONTRACT 18). */
  credentials: Pick<CredentialSet, 'end' | 'removeAccount'>;
  activity: ActivityService;
  users: Pick<UserService, 'createUser'>;
  /** CONTRACT 16: user.updated and user.deleted, in the change's transaction. */
  events: Events;
}) {
  const { sequelize, models, tokens, credentials, activity, users, events } = deps;
  const list = createUserList({ sequelize, models });

  async function get(id: string): Promise<AdminUserView> {
    const user = await models.User.findByPk(id);
    if (!user) throw AppError.notFound(USER_ADMIN_MESSAGES.notFound);
    return toAdminUserView(user);
  }

  /** Creates a user through the one creation path (user.service): email normalised, profile row included. */
  async function create(input: AdminUserCreate, audit: AdminAudit): Promise<AdminUserView> {
    const newUser: NewUserInput = {
      email: input.email,
      password: input.password ?? null,
      username: input.username ?? null,
      firstName: input.firstName ?? null,
      lastName: input.lastName ?? null,
      role: input.role ?? 'viewer',
    };
    const user = await users.createUser(newUser);
    await activity.record(
      {
        action: 'user.created',
        userId: audit.actor.id,
        email: audit.actor.email,
        details: { targetUserId: user.id, targetEmail: user.email, role: user.role, withPassword: input.password !== undefined },
      },
      audit.context,
    );
    return toAdminUserView(user);
  }

  /** Locks every active admin row (in one order) and answers their ids. */
  async function lockActiveAdmins(transaction: Transaction): Promise<Set<string>> {
    const admins = await models.User.findAll({
      attributes: ['id'],
      where: { role: 'admin', active: true },
      order: [['id', 'ASC']],
      lock: transaction.LOCK.UPDATE,
      transaction,
    });
    return new Set(admins.map((admin) => admin.id));
  }

  /** Refuses when `userId` is an active admin and no other active admin would remain. */
  function assertAnotherAdminRemains(activeAdmins: Set<string>, userId: string): void {
    if (activeAdmins.has(userId) && activeAdmins.size <= 1) throw AppError.conflict(USER_ADMIN_MESSAGES.lastAdmin);
  }

  /**
   * Changes role, active flag and names. A change that would leave no active admin is refused with 409;
   * a role change or deactivation ends the user's tokens in the same transaction.
   */
  async function update(
    id: string,
    input: AdminUserChanges,
    audit: AdminAudit,
    /** More writes of the same change, in the same transaction (the admin forms' profile fields); answers the profile fields changed. */
    alsoInTransaction?: (transaction: Transaction) => Promise<string[]>,
  ): Promise<AdminUserView> {
    const affectsAdmins = input.role !== undefined || input.active !== undefined;
    const outcome = await transactionWithRetry(sequelize, async (transaction) => {
      // Admin rows first, then the target: every writer takes the locks in this order.
      const activeAdmins = affectsAdmins ? await lockActiveAdmins(transaction) : new Set<string>();
      const user = await models.User.findByPk(id, { transaction, lock: transaction.LOCK.UPDATE });
      if (!user) throw AppError.notFound(USER_ADMIN_MESSAGES.notFound);

      const changes: Record<string, { from: unknown; to: unknown }> = {};
      if (input.role !== undefined && input.role !== user.role) changes.role = { from: user.role, to: input.role };
      if (input.active !== undefined && input.active !== Boolean(user.active)) changes.active = { from: Boolean(user.active), to: input.active };
      for (const field of NAME_FIELDS) {
        const value = input[field];
        if (value !== undefined && value !== user[field]) changes[field] = { from: user[field], to: value };
      }
      const verifiedBefore = Boolean(user.emailVerifiedAt);
      if (input.emailVerified !== undefined && input.emailVerified !== verifiedBefore) changes.emailVerified = { from: verifiedBefore, to: input.emailVerified };
      if (Object.keys(changes).length > 0) {
        const losesAdmin = (changes.role && changes.role.from === 'admin') || changes.active?.to === false;
        if (losesAdmin) assertAnotherAdminRemains(activeAdmins, user.id);
        if (changes.username && (await usernameTakenByAnother(models, input.username as string, user.id, transaction))) {
          throw AppError.conflict(USER_ADMIN_MESSAGES.duplicate);
        }
        const { emailVerified, ...columns } = changes;
        user.set(Object.fromEntries(Object.entries(columns).map(([field, change]) => [field, change.to])));
        if (emailVerified) user.set('emailVerifiedAt', emailVerified.to ? new Date() : null);
        await user.save({ transaction });
        if (changes.active?.to === false) await credentials.end('deactivation', user.id, { transaction });
        else if (changes.role) await credentials.end('role-change', user.id, { transaction });
      }
      const profile = (await alsoInTransaction?.(transaction)) ?? [];
      // One event for the whole form: the account's fields with `from`/`to`, the profile's by name alone.
      if (Object.keys(changes).length > 0 || profile.length > 0) {
        await events.record('user.updated', { user: eventUser(user), changes: { ...changes, ...(profile.length > 0 ? { profile } : {}) }, actor: audit.actor }, { transaction });
      }
      return { user, changes };
    }).catch((err: unknown) => {
      if (err instanceof UniqueConstraintError) throw AppError.conflict(USER_ADMIN_MESSAGES.duplicate);
      throw err;
    });

    const { user, changes } = outcome;
    if (Object.keys(changes).length === 0) return toAdminUserView(user);
    // Name changes keep the tokens but make cached verification results (and so /auth/me) stale.
    if (!changes.role && changes.active?.to !== false) await tokens.userChanged(user.id);
    await activity.record(
      { action: 'user.updated', userId: audit.actor.id, email: audit.actor.email, details: { targetUserId: user.id, targetEmail: user.email, changes } },
      audit.context,
    );
    return toAdminUserView(user);
  }

  /**
   * Deletes a user with everything that is theirs (the credential table's "deletion": every credential kind,
   * and codes and links mailed to the address); their content stays, authorless. Deleting the last active
   * admin is refused.
   */
  async function remove(id: string, audit: AdminAudit): Promise<void> {
    const email = await transactionWithRetry(sequelize, async (transaction) => {
      const activeAdmins = await lockActiveAdmins(transaction);
      const user = await models.User.findByPk(id, { transaction, lock: transaction.LOCK.UPDATE });
      if (!user) throw AppError.notFound(USER_ADMIN_MESSAGES.notFound);
      assertAnotherAdminRemains(activeAdmins, user.id);
      await credentials.removeAccount(user, transaction);
      await events.record('user.deleted', { user: eventUser(user), actor: audit.actor }, { transaction });
      return user.email;
    });
    await activity.record(
      { action: 'user.deleted', userId: audit.actor.id, email: audit.actor.email, details: { targetUserId: id, targetEmail: email } },
      audit.context,
    );
  }

  // Lists and searches may show a replica's state, a moment behind (DATABASE_READ_URLS); one user's page reads the primary.
  return { list: (query: UserListQuery) => readsMayLag(() => list(query)), get, create, update, remove };
}

export type UserAdminService = ReturnType<typeof createUserAdminService>;
