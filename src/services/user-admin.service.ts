import { Op, UniqueConstraintError, col, fn, literal, where as sqlWhere, type Sequelize, type Transaction, type WhereOptions } from 'sequelize';
import type { Models, Role, User } from '../models';
import type { TokenService } from '../sessions/token.service';
import type { ActivityService } from './activity.service';
import { USER_MESSAGES, type NewUserInput, type UserService } from './user.service';
import { toPublicUser, type PublicUser } from '../sessions/auth-user';
import type { AdminAudit } from '../http/request-context';
import { AppError } from '../http/app-error';
import { transactionWithRetry } from '../db/transaction-retry';
import { readsMayLag } from '../db/read-replicas';

export const USER_ADMIN_MESSAGES = {
  notFound: 'User not found',
  lastAdmin: 'This change would leave no active admin: promote or activate another admin first',
  // The one message for a taken email or username, whichever service finds it (forms match on it).
  duplicate: USER_MESSAGES.duplicate,
} as const;

/** A user as the admin API shows it (CONTRACT 4): never a hash, epoch or other internal field. */
export interface AdminUserView extends PublicUser {
  active: boolean;
  /** The address was proven (CONTRACT 12). */
  emailVerified: boolean;
  createdAt: Date;
}

export interface UserListQuery {
  page: number;
  limit: number;
  /** Substring of email, username, first or last name (case-insensitive, taken literally). */
  q?: string;
  role?: Role;
  /** false: only accounts whose address is unproven (CONTRACT 12 "unverified"); true: only verified ones. */
  verified?: boolean;
}

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
/**
 * What a search matches: a substring of the email, username, first or last name, case-insensitively.
 * `search_text` is a generated, indexed column joining the four (migration 20261123000200), so one LIKE
 * scans one narrow index rather than four columns of every row.
 */
const SEARCH_COLUMN = 'search_text';
/** A search matching at most this many users reads their ids and times, and cuts the page from them (see list). */
const FEW_MATCHES = 2000;
// LIKE escape character: `!` rather than a backslash, whose meaning inside string literals differs
// between MariaDB and SQLite.
const LIKE_ESCAPE = '!';

/**
 * The ids of rows read raw, newest first, then by id: the list's order. Each time is parsed once (SQLite
 * gives it as text); parsing inside the comparison cost 3 ms for a thousand matches.
 */
function idsNewestFirst(rows: { id: string; createdAt: Date | string }[]): string[] {
  const keyed = rows.map((row) => ({ id: row.id, time: new Date(row.createdAt).getTime() }));
  keyed.sort((a, b) => b.time - a.time || (b.id < a.id ? -1 : b.id > a.id ? 1 : 0));
  return keyed.map((row) => row.id);
}

export function toAdminUserView(user: User): AdminUserView {
  return { ...toPublicUser(user), active: Boolean(user.active), emailVerified: Boolean(user.emailVerifiedAt), createdAt: user.createdAt };
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
  tokens: Pick<TokenService, 'revokeAllForUser' | 'userChanged'>;
  activity: ActivityService;
  users: Pick<UserService, 'createUser'>;
}) {
  const { sequelize, models, tokens, activity, users } = deps;
  const quote = (name: string) => sequelize.getQueryInterface().quoteIdentifier(name);

  function searchCondition(q: string): WhereOptions {
    const pattern = `%${q.replace(/[!%_]/g, (c) => LIKE_ESCAPE + c)}%`;
    const escaped = sequelize.escape(pattern);
    const column = quote(SEARCH_COLUMN);
    // LOWER: the MariaDB column holds lower-cased UTF-8 bytes; SQLite's LIKE ignores ASCII case either way.
    // `> ''` holds for every row (the column always starts with the email), but a range on the column is
    // what makes SQLite's planner read the narrow search index instead of every row of the table (measured
    // at 100,000 users: 25–35 ms against 55–75 ms); MariaDB reads that index either way.
    return literal(`${column} > '' AND ${column} LIKE LOWER(${escaped}) ESCAPE '${LIKE_ESCAPE}'`);
  }

  /**
   * One page of users, newest first, filtered by a search string and/or role. A search first collects
   * its matches (id and creation time), up to FEW_MATCHES + 1, in one scan of the search index: when
   * they are few, their number is the total, the page is cut from them here and only its rows are read
   * (walking the newest-first index for a rare term would visit most rows). Many matches are dense, so
   * they are counted and the newest-first walk finds a page after a few rows.
   */
  async function list(query: UserListQuery): Promise<{ users: AdminUserView[]; total: number; page: number; limit: number }> {
    const conditions: WhereOptions[] = [];
    if (query.role) conditions.push({ role: query.role });
    if (query.verified !== undefined) conditions.push({ emailVerifiedAt: query.verified ? { [Op.ne]: null } : null });
    if (query.q) conditions.push(searchCondition(query.q));
    const where: WhereOptions = { [Op.and]: conditions };
    const offset = (query.page - 1) * query.limit;
    const answer = (rows: User[], total: number) => ({ users: rows.map(toAdminUserView), total, page: query.page, limit: query.limit });

    if (query.q) {
      const matches = await models.User.findAll({ attributes: ['id', 'createdAt'], where, limit: FEW_MATCHES + 1, raw: true });
      if (matches.length <= FEW_MATCHES) {
        const ids = idsNewestFirst(matches).slice(offset, offset + query.limit);
        const rows = ids.length > 0 ? await models.User.findAll({ where: { id: ids } }) : [];
        return answer(rows.sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id)), matches.length);
      }
    }
    const total = await models.User.count({ where });
    const rows = await models.User.findAll({
      where,
      order: [
        ['createdAt', 'DESC'],
        ['id', 'DESC'],
      ],
      limit: query.limit,
      offset,
    });
    return answer(rows, total);
  }

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

  async function usernameTaken(username: string, exceptId: string, transaction: Transaction): Promise<boolean> {
    const found = await models.User.findOne({
      attributes: ['id'],
      where: { [Op.and]: [sqlWhere(fn('lower', col('username')), username.toLowerCase()), { id: { [Op.ne]: exceptId } }] },
      transaction,
    });
    return found !== null;
  }

  /**
   * Changes role, active flag and names. A change that would leave no active admin is refused with 409;
   * a role change or deactivation ends the user's tokens in the same transaction.
   */
  async function update(
    id: string,
    input: AdminUserChanges,
    audit: AdminAudit,
    /** More writes of the same change, in the same transaction (the admin forms' profile fields). */
    alsoInTransaction?: (transaction: Transaction) => Promise<void>,
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
        if (changes.username && (await usernameTaken(input.username as string, user.id, transaction))) {
          throw AppError.conflict(USER_ADMIN_MESSAGES.duplicate);
        }
        const { emailVerified, ...columns } = changes;
        user.set(Object.fromEntries(Object.entries(columns).map(([field, change]) => [field, change.to])));
        if (emailVerified) user.set('emailVerifiedAt', emailVerified.to ? new Date() : null);
        await user.save({ transaction });
        if (changes.role || changes.active?.to === false) await tokens.revokeAllForUser(user.id, { transaction });
      }
      await alsoInTransaction?.(transaction);
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
   * Deletes a user with everything that is theirs: profile, OAuth links and reset tokens go with the
   * row (foreign keys cascade), OTP codes and magic-link tokens are removed by email, and their
   * tokens end at once. Their content stays, authorless. Deleting the last active admin is refused.
   */
  async function remove(id: string, audit: AdminAudit): Promise<void> {
    const email = await transactionWithRetry(sequelize, async (transaction) => {
      const activeAdmins = await lockActiveAdmins(transaction);
      const user = await models.User.findByPk(id, { transaction, lock: transaction.LOCK.UPDATE });
      if (!user) throw AppError.notFound(USER_ADMIN_MESSAGES.notFound);
      assertAnotherAdminRemains(activeAdmins, user.id);
      await tokens.revokeAllForUser(user.id, { transaction });
      await models.OtpCode.destroy({ where: { userEmail: user.email }, transaction });
      await models.AuthVerification.destroy({ where: { identifier: user.email }, transaction });
      await user.destroy({ transaction });
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
