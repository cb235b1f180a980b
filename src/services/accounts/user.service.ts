import crypto from 'node:crypto';
import { UniqueConstraintError, fn, col, where as sqlWhere, type Sequelize, type Transaction } from 'sequelize';
import type { Models, Role, User } from '../../models';
import type { PasswordService } from '../../credentials/password.service';
import type { ProfileService } from './profile.service';
import type { SettingsService } from '../operations/settings.service';
import { AppError } from '../../http/app-error';
import { EMAIL_MESSAGES, emailAddress } from '../../util/account-text';
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

const USERNAME_MIN = 3;
const USERNAME_MAX = 64;
const GENERATED_BASE_MAX = 48;
const RETRIES = 4;

/** What any path that creates a user passes (register, admin API, OTP, magic link, OAuth, seed-admin). */
export interface NewUserInput {
  email: string;
  /** Plain password, hashed here; omitted/null for passwordless accounts. */
  password?: string | null;
  /** A hash made already (an import's, checked by importedHashProblem), stored as it is; `password` wins. */
  passwordHash?: string | null;
  /** When the address was proven (an import's vouched-for address); unproven when absent. */
  emailVerifiedAt?: Date | null;
  /** When the account was made elsewhere (an import); now when absent. */
  createdAt?: Date;
  /** Defaults to the email's local part, made unique. */
  username?: string | null;
  firstName?: string | null;
  lastName?: string | null;
  /** Honoured for admin callers; self-registration passes none (viewer). The first user is admin regardless. */
  role?: Role;
  active?: boolean;
  avatarUrl?: string | null;
  /** Custom profile data, ALREADY validated by the caller (e.g. profiles.validateRegistration). */
  profile?: Record<string, unknown>;
}

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

/** A username from an email's local part: safe characters only, at least three of them. */
function usernameBase(email: string): string {
  const local = email.split('@')[0] ?? '';
  const cleaned = local.replace(/[^a-z0-9._-]/g, '').slice(0, GENERATED_BASE_MAX);
  if (cleaned.length === 0) return 'user';
  return cleaned.length < USERNAME_MIN ? `${cleaned}_user` : cleaned;
}

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
  profiles: Pick<ProfileService, 'createForUser'>;
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
    const claimed = (claim.value as { userId?: string | null } | null)?.userId ?? null;
    const isFirstUser = !options.roleAsGiven && claimed === null && (await models.User.count({ transaction })) === 0;

    if (options.onlyIf === 'first-user' && !isFirstUser) throw AppError.forbidden(USER_MESSAGES.registrationDisabled);
    if (options.onlyIf === 'no-admin' && (await models.User.count({ where: { role: 'admin' }, transaction })) > 0) {
      throw AppError.conflict(USER_MESSAGES.adminExists);
    }
    if (await models.User.findOne({ attributes: ['id'], where: { email }, transaction })) {
      throw AppError.conflict(USER_MESSAGES.duplicate);
    }
    const username = await chooseUsername(email, input.username?.trim(), transaction);
    const id = crypto.randomUUID();
    const user = await models.User.create(
      {
        id,
        email,
        username,
        firstName: input.firstName ?? null,
        lastName: input.lastName ?? null,
        role: isFirstUser ? 'admin' : (input.role ?? 'viewer'),
        active: input.active ?? true,
        passwordHash,
        selfRegistered: Boolean(options.selfRegistered) && !isFirstUser,
        avatarUrl: input.avatarUrl ?? null,
        emailVerifiedAt: input.emailVerifiedAt ?? null,
        ...(input.createdAt ? { createdAt: input.createdAt } : {}),
      },
      { transaction },
    );
    await profiles.createForUser(id, input.profile ?? {}, transaction);
    if (options.afterInsert) await options.afterInsert(user, transaction);
    await events?.record('user.created', { user: eventUser(user) }, { transaction });
    if (claimed === null) {
      // The first user claims the row; so does any creation that finds users made elsewhere (a seeder).
      claim.value = { userId: isFirstUser ? id : 'preexisting' };
      claim.changed('value', true);
      await claim.save({ transaction });
    }
    return user;
  }

  /**
   * Creates a user (see NewUserInput). Throws AppError 409 "User with this email or username already
   * exists" on a duplicate, also when a unique index fires under a race, and the `onlyIf` refusals.
   * Returns the created row (its `role` tells whether it became the first admin).
   */
  async function createUser(input: NewUserInput, options: CreateUserOptions = {}): Promise<User> {
    // Every path lands here (provider profiles and stored link identifiers too): the one rule, again.
    const email = emailAddress(input.email);
    if (email === null) throw AppError.validation({ email: EMAIL_MESSAGES.invalid });
    const username = input.username?.trim();
    if (username !== undefined && username !== '' && (username.length < USERNAME_MIN || username.length > USERNAME_MAX)) {
      throw AppError.validation({ username: `must be ${USERNAME_MIN} to ${USERNAME_MAX} characters` });
    }
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

  return { createUser, signUp, signUpOpen, adminExists };
}

export type UserService = ReturnType<typeof createUserService>;
