import crypto from 'node:crypto';
import { Op, UniqueConstraintError, fn, col, where as sqlWhere, type Sequelize, type Transaction } from 'sequelize';
import type { Models, Setting, User } from '../../models';
import type { PasswordService } from '../../credentials/password.service';
import type { ProfileService } from './profile.service';
import type { SettingsService } from '../operations/settings.service';
import { AppError } from '../../http/app-error';
import { asciiLower, checkedInput, userRow, usernameBase, type NewUserInput } from './new-user';
import { transactionWithRetry } from '../../db/transaction-retry';
import { eventUser } from '../operations/webhook-events';
import type { Events } from '../operations/webhooks.service';

export const USER_MESSAGES = {
  duplicate: 'User with this email or username already exists',
  registrationDisabled: 'Registration is currently disabled',
  adminExists: 'An admin user already exists',
} as const;

/**
 * Row in `settings` that every user creation locks first (SELECT … FOR UPDATE). It serialises user
 * creation on MariaDB the way IMMEDIATE transactions already do on SQLite, so "is this the first user?",
 * "is the name free?" and "is there an admin?" are answered atomically on both. Its value records who
 * claimed the first-admin role: `{ userId: null }` until then.
 */
export const FIRST_ADMIN_CLAIM_KEY = 'bootstrap.firstAdmin';

const RETRIES = 4;

export type { NewUserInput } from './new-user';

export interface CreateUserOptions {
  /** Create inside the caller's transaction (e.g. user + OAuth link together); no retry then. */
  transaction?: Transaction;
  /**
   * `first-user`: refuse with 403 "Registration is currently disabled" unless this becomes the first user
   * (self-service sign-up while an admin has turned registration off). `no-admin`: refuse with 409 "An admin
   * user already exists" when any admin exists (seed-admin). Both decided under the same lock as the role.
   */
  onlyIf?: 'first-user' | 'no-admin';
  /**
   * More writes that belong with the new user (an OAuth link), run in the same transaction right after
   * the user and profile rows. Preferred over `transaction` on MariaDB: createUser then holds a single
   * pooled connection, so many parallel creations cannot exhaust the pool waiting for a second one.
   */
  afterInsert?: (user: User, transaction: Transaction) => Promise<void>;
  /**
   * The user signs themselves up with a password (registration by JSON or form): unverified until the address
   * is proven (CONTRACT 18). Not so for the first user, who is the bootstrap admin and vouched for.
   */
  selfRegistered?: boolean;
  /**
   * The role as the input gives it even when this is the first user (an import: its records name their admins, and
   * whichever record comes first must not become one).
   */
  roleAsGiven?: boolean;
}

/** The one normal form of an email for lookup and storage (ASCII only; defined with the email rule). */
export { normalizeEmail } from '../../util/account-text';

/** The claim row vanished and reappeared under us (tables emptied meanwhile): run the transaction again. */
class ClaimRaced extends Error {}


/**
 * Creates users. `createUser` is THE way to create one: it normalises the email, hashes the password,
 * picks the username, decides the role (the first user ever is `admin`, atomically) and writes the user
 * and their profile row in one transaction.
 */
export function createUserService(deps: {
  sequelize: Sequelize;
  models: Models;
  passwords: PasswordService;
  profiles: Pick<ProfileService, 'createForUser' | 'createForUsers'>;
  settings: Pick<SettingsService, 'getSecuritySettings'>;
  /** CONTRACT 16: `user.created`, recorded with the user's rows (absent in tests that build the service alone). */
  events?: Events;
}) {
  const { sequelize, models, passwords, profiles, settings, events } = deps;
  const dialect = sequelize.getDialect();

  /**
   * Makes sure the claim row exists. Outside any transaction where possible: inserting it inside
   * concurrent MariaDB transactions would make them deadlock on each other's shared locks. SQLite with a
   * caller's transaction must use that transaction (another connection would wait for its write lock).
   */
  async function ensureClaimRow(outer?: Transaction): Promise<void> {
    const transaction = dialect === 'sqlite' ? outer : undefined;
    const existing = await models.Setting.findByPk(FIRST_ADMIN_CLAIM_KEY, { attributes: ['key'], transaction });
    if (existing) return;
    await models.Setting.bulkCreate([{ key: FIRST_ADMIN_CLAIM_KEY, value: { userId: null } }], {
      ignoreDuplicates: true,
      transaction,
    });
  }

  async function lockClaim(transaction: Transaction) {
    const claim = await models.Setting.findByPk(FIRST_ADMIN_CLAIM_KEY, { transaction, lock: transaction.LOCK.UPDATE });
    if (claim) return claim;
    // Deleted since ensureClaimRow (a test emptying tables): create it here; a clash is retried.
    try {
      return await models.Setting.create({ key: FIRST_ADMIN_CLAIM_KEY, value: { userId: null } }, { transaction });
    } catch (err) {
      if (err instanceof UniqueConstraintError) throw new ClaimRaced();
      throw err;
    }
  }

  async function usernameTaken(username: string, transaction: Transaction): Promise<boolean> {
    // Case-insensitive on both databases: MariaDB's collation already is (and uses the index); SQLite's = is not.
    const found = await models.User.findOne({
      attributes: ['id'],
      where: dialect === 'sqlite' ? sqlWhere(fn('lower', col('username')), username.toLowerCase()) : { username },
      transaction,
    });
    return found !== null;
  }

  async function chooseUsername(email: string, requested: string | null | undefined, transaction: Transaction): Promise<string> {
    if (requested) {
      if (await usernameTaken(requested, transaction)) throw AppError.conflict(USER_MESSAGES.duplicate);
      return requested;
    }
    const base = usernameBase(email);
    if (!(await usernameTaken(base, transaction))) return base;
    for (;;) {
      const candidate = `${base}-${crypto.randomBytes(3).toString('hex')}`;
      if (!(await usernameTaken(candidate, transaction))) return candidate;
    }
  }

  async function insert(
    input: NewUserInput,
    email: string,
    passwordHash: string | null,
    options: CreateUserOptions,
    transaction: Transaction,
  ): Promise<User> {
    const claim = await lockClaim(transaction);
    const unclaimed = ((claim.value as { userId?: string | null } | null)?.userId ?? null) === null;
    const isFirstUser = !options.roleAsGiven && unclaimed && (await models.User.count({ transaction })) === 0;

    if (options.onlyIf === 'first-user' && !isFirstUser) throw AppError.forbidden(USER_MESSAGES.registrationDisabled);
    if (options.onlyIf === 'no-admin' && (await models.User.count({ where: { role: 'admin' }, transaction })) > 0) {
      throw AppError.conflict(USER_MESSAGES.adminExists);
    }
    if (await models.User.findOne({ attributes: ['id'], where: { email }, transaction })) {
      throw AppError.conflict(USER_MESSAGES.duplicate);
    }
    const username = await chooseUsername(email, input.username?.trim(), transaction);
    const id = crypto.randomUUID();
    const role = isFirstUser ? 'admin' : (input.role ?? 'viewer');
    const user = await models.User.create(userRow(input, { id, email, username, passwordHash, role, selfRegistered: Boolean(options.selfRegistered) && !isFirstUser }), { transaction });
    await profiles.createForUser(id, input.profile ?? {}, transaction);
    if (options.afterInsert) await options.afterInsert(user, transaction);
    await events?.record('user.created', { user: eventUser(user) }, { transaction });
    await settleClaim(claim, isFirstUser ? id : 'preexisting', transaction);
    return user;
  }

  /** The first user claims the row; so does any creation that finds users made elsewhere (a seeder, an import). */
  async function settleClaim(claim: Setting, holder: string, transaction: Transaction): Promise<void> {
    if (((claim.value as { userId?: string | null } | null)?.userId ?? null) !== null) return;
    claim.value = { userId: holder };
    claim.changed('value', true);
    await claim.save({ transaction });
  }

  /**
   * The keys of the stored usernames among `names`, as usernameTaken judges a name: on SQLite lower(username),
   * which a name is taken by when its toLowerCase() equals it; on MariaDB the stored names the collation finds,
   * ASCII lower-cased. A name the collation equates otherwise (accents) is left to the unique index.
   */
  async function storedUsernameKeys(names: string[], transaction: Transaction): Promise<Set<string>> {
    if (names.length === 0) return new Set();
    const sqlite = dialect === 'sqlite';
    const rows = await models.User.findAll({
      attributes: [[sqlite ? fn('lower', col('username')) : col('username'), 'name']],
      where: sqlite ? sqlWhere(fn('lower', col('username')), { [Op.in]: names.map((name) => name.toLowerCase()) }) : { username: names },
      raw: true,
      transaction,
    });
    return new Set(rows.map((row) => asciiLower(String((row as unknown as { name: string }).name))));
  }

  /**
   * Creates many users in the caller's transaction (an import's batch, CONTRACT 17): the rows createUser would
   * write one after another, in input order, with one read of the usernames they ask for and one INSERT each
   * for the users and their profiles, their search trigrams left to the fill (search-index-fill.ts). Roles as
   * given; hashes made already. The caller has read that no input's
   * email is stored and that no two share one. Answers each input's new user or the refusal createUser would
   * throw. A unique index that fires (a writer took an email or name since the reads) throws
   * UniqueConstraintError: the caller runs this in a savepoint and goes input by input.
   */
  async function createUsers(inputs: Array<Omit<NewUserInput, 'password'>>, transaction: Transaction): Promise<Array<User | AppError>> {
    const checked = inputs.map((input) => {
      try {
        return checkedInput(input);
      } catch (err) {
        if (err instanceof AppError) return err;
        throw err;
      }
    });
    await ensureClaimRow(transaction);
    const claim = await lockClaim(transaction);
    const asked = checked.flatMap((input) => (input instanceof AppError ? [] : [input.username || usernameBase(input.email)]));
    const taken = await storedUsernameKeys(asked, transaction);
    const probe = (name: string) => (dialect === 'sqlite' ? name.toLowerCase() : asciiLower(name));
    const generated = (email: string) => {
      for (;;) {
        const candidate = `${usernameBase(email)}-${crypto.randomBytes(3).toString('hex')}`;
        if (!taken.has(probe(candidate))) return candidate;
      }
    };
    const rows: Array<ReturnType<typeof userRow> & { searchPending: boolean }> = [];
    const unchecked: number[] = [];
    // Each name as it would be chosen after the inputs before it were written: a name given earlier is taken.
    const results = checked.map((input, at) => {
      if (input instanceof AppError) return input;
      let username = input.username || usernameBase(input.email);
      if (taken.has(probe(username))) {
        if (input.username) return AppError.conflict(USER_MESSAGES.duplicate);
        username = generated(input.email);
        unchecked.push(rows.length);
      }
      taken.add(asciiLower(username));
      const { passwordHash = null, role = 'viewer' } = inputs[at];
      // Indexed for search after the import (search-index-fill.ts): ~45 trigram rows a user were most of its cost.
      rows.push({ ...userRow(inputs[at], { id: crypto.randomUUID(), email: input.email, username, passwordHash, role, selfRegistered: false }), searchPending: true });
      return { row: rows.length - 1, profile: inputs[at].profile ?? {} };
    });
    // Generated names were checked against the batch only: against the table, and again until free.
    for (let pending = unchecked; pending.length > 0; ) {
      const stored = await storedUsernameKeys(pending.map((at) => rows[at].username), transaction);
      pending = pending.filter((at) => stored.has(probe(rows[at].username)));
      for (const at of pending) taken.add(asciiLower((rows[at].username = generated(rows[at].email))));
    }
    const users = rows.length > 0 ? await models.User.bulkCreate(rows, { transaction }) : [];
    const made = results.filter((result): result is { row: number; profile: Record<string, unknown> } => !(result instanceof AppError));
    await profiles.createForUsers(made.map(({ row, profile }) => ({ userId: rows[row].id, data: profile })), transaction);
    if (users.length === 0) return results as AppError[];
    // Asked once: with nobody listening, a million users cost no store read each.
    if (events && (await events.listens('user.created', transaction))) {
      for (const user of users) await events.record('user.created', { user: eventUser(user) }, { transaction });
    }
    await settleClaim(claim, 'preexisting', transaction);
    return results.map((result) => (result instanceof AppError ? result : users[result.row]));
  }

  /**
   * Creates a user (see NewUserInput). Throws AppError 409 "User with this email or username already
   * exists" on a duplicate, also when a unique index fires under a race, and the `onlyIf` refusals.
   * Returns the created row (its `role` tells whether it became the first admin).
   */
  async function createUser(input: NewUserInput, options: CreateUserOptions = {}): Promise<User> {
    const { email } = checkedInput(input);
    // Hash before any lock is taken: PBKDF2 takes tens of milliseconds.
    const passwordHash = input.password ? await passwords.hash(input.password) : (input.passwordHash ?? null);
    await ensureClaimRow(options.transaction);

    try {
      if (options.transaction) return await insert(input, email, passwordHash, options, options.transaction);
      return await transactionWithRetry(sequelize, (transaction) => insert(input, email, passwordHash, options, transaction), {
        attempts: RETRIES,
        retryWhen: (err) => err instanceof ClaimRaced,
      });
    } catch (err) {
      if (err instanceof UniqueConstraintError) throw AppError.conflict(USER_MESSAGES.duplicate);
      throw err;
    }
  }

  /**
   * A user signing themselves up, by any method (the form, a one-time code, a magic link, a provider):
   * allowed while the service-wide "Allow registration" is on, and always for the very first user. The one
   * place that rule lives; refused with 403 "Registration is currently disabled".
   */
  async function signUp(input: NewUserInput, options: Pick<CreateUserOptions, 'afterInsert' | 'selfRegistered'> = {}): Promise<User> {
    const { allowRegistration } = await settings.getSecuritySettings();
    return createUser(input, { ...options, onlyIf: allowRegistration.value ? undefined : 'first-user' });
  }

  /** Whether any admin exists (a quick pre-check; createUser's `no-admin` is the atomic one). */
  async function adminExists(): Promise<boolean> {
    return (await models.User.count({ where: { role: 'admin' } })) > 0;
  }

  /** Whether `signUp` would let a new user in now (the registration form says "disabled" only when it would not). */
  async function signUpOpen(): Promise<boolean> {
    const { allowRegistration } = await settings.getSecuritySettings();
    return allowRegistration.value || (await models.User.count()) === 0;
  }

  return { createUser, createUsers, signUp, signUpOpen, adminExists };
}

export type UserService = ReturnType<typeof createUserService>;
