"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.FIRST_ADMIN_CLAIM_KEY = exports.USER_MESSAGES = void 0;
exports.normalizeEmail = normalizeEmail;
exports.toPublicUser = toPublicUser;
exports.createUserService = createUserService;
const node_crypto_1 = __importDefault(require("node:crypto"));
const sequelize_1 = require("sequelize");
const app_error_1 = require("../http/app-error");
exports.USER_MESSAGES = {
    duplicate: 'User with this email or username already exists',
    registrationDisabled: 'Registration is currently disabled',
    adminExists: 'An admin user already exists',
};
/**
 * Row in `settings` that every user creation locks first (SELECT … FOR UPDATE). It serialises user
 * creation on MariaDB the way IMMEDIATE transactions already do on SQLite, so "is this the first user?",
 * "is the name free?" and "is there an admin?" are answered atomically on both. Its value records who
 * claimed the first-admin role: `{ userId: null }` until then.
 */
exports.FIRST_ADMIN_CLAIM_KEY = 'bootstrap.firstAdmin';
const USERNAME_MIN = 3;
const USERNAME_MAX = 64;
const GENERATED_BASE_MAX = 48;
const RETRIES = 4;
/** Trims and lower-cases an email: the one normal form used for lookup and storage. */
function normalizeEmail(email) {
    return email.trim().toLowerCase();
}
/** `{ id, email, username, firstName, lastName, role }` of a user row; never the hash or internal fields. */
function toPublicUser(user) {
    return {
        id: user.id,
        email: user.email,
        username: user.username,
        firstName: user.firstName ?? null,
        lastName: user.lastName ?? null,
        role: user.role,
    };
}
/** A username from an email's local part: safe characters only, at least three of them. */
function usernameBase(email) {
    const local = email.split('@')[0] ?? '';
    const cleaned = local.replace(/[^a-z0-9._-]/g, '').slice(0, GENERATED_BASE_MAX);
    if (cleaned.length === 0)
        return 'user';
    return cleaned.length < USERNAME_MIN ? `${cleaned}_user` : cleaned;
}
/** The claim row vanished and reappeared under us (tables emptied meanwhile): run the transaction again. */
class ClaimRaced extends Error {
}
function isRetryable(err) {
    if (err instanceof ClaimRaced)
        return true;
    const parent = err.parent;
    return parent?.code === 'ER_LOCK_DEADLOCK' || parent?.errno === 1213;
}
/**
 * Creates users. `createUser` is THE way to create one: it normalises the email, hashes the password,
 * picks the username, decides the role (the first user ever is `admin`, atomically) and writes the user
 * and their profile row in one transaction.
 */
function createUserService(deps) {
    const { sequelize, models, passwords, profiles, logger } = deps;
    const dialect = sequelize.getDialect();
    /**
     * Makes sure the claim row exists. Outside any transaction where possible: inserting it inside
     * concurrent MariaDB transactions would make them deadlock on each other's shared locks. SQLite with a
     * caller's transaction must use that transaction (another connection would wait for its write lock).
     */
    async function ensureClaimRow(outer) {
        const transaction = dialect === 'sqlite' ? outer : undefined;
        const existing = await models.Setting.findByPk(exports.FIRST_ADMIN_CLAIM_KEY, { attributes: ['key'], transaction });
        if (existing)
            return;
        await models.Setting.bulkCreate([{ key: exports.FIRST_ADMIN_CLAIM_KEY, value: { userId: null } }], {
            ignoreDuplicates: true,
            transaction,
        });
    }
    async function lockClaim(transaction) {
        const claim = await models.Setting.findByPk(exports.FIRST_ADMIN_CLAIM_KEY, { transaction, lock: transaction.LOCK.UPDATE });
        if (claim)
            return claim;
        // Deleted since ensureClaimRow (a test emptying tables): create it here; a clash is retried.
        try {
            return await models.Setting.create({ key: exports.FIRST_ADMIN_CLAIM_KEY, value: { userId: null } }, { transaction });
        }
        catch (err) {
            if (err instanceof sequelize_1.UniqueConstraintError)
                throw new ClaimRaced();
            throw err;
        }
    }
    async function usernameTaken(username, transaction) {
        // Case-insensitive on both databases: MariaDB's collation already is (and uses the index); SQLite's = is not.
        const found = await models.User.findOne({
            attributes: ['id'],
            where: dialect === 'sqlite' ? (0, sequelize_1.where)((0, sequelize_1.fn)('lower', (0, sequelize_1.col)('username')), username.toLowerCase()) : { username },
            transaction,
        });
        return found !== null;
    }
    async function chooseUsername(email, requested, transaction) {
        if (requested) {
            if (await usernameTaken(requested, transaction))
                throw app_error_1.AppError.conflict(exports.USER_MESSAGES.duplicate);
            return requested;
        }
        const base = usernameBase(email);
        if (!(await usernameTaken(base, transaction)))
            return base;
        for (;;) {
            const candidate = `${base}-${node_crypto_1.default.randomBytes(3).toString('hex')}`;
            if (!(await usernameTaken(candidate, transaction)))
                return candidate;
        }
    }
    async function insert(input, email, passwordHash, options, transaction) {
        const claim = await lockClaim(transaction);
        const claimed = claim.value?.userId ?? null;
        const isFirstUser = claimed === null && (await models.User.count({ transaction })) === 0;
        if (options.onlyIf === 'first-user' && !isFirstUser)
            throw app_error_1.AppError.forbidden(exports.USER_MESSAGES.registrationDisabled);
        if (options.onlyIf === 'no-admin' && (await models.User.count({ where: { role: 'admin' }, transaction })) > 0) {
            throw app_error_1.AppError.conflict(exports.USER_MESSAGES.adminExists);
        }
        if (await models.User.findOne({ attributes: ['id'], where: { email }, transaction })) {
            throw app_error_1.AppError.conflict(exports.USER_MESSAGES.duplicate);
        }
        const username = await chooseUsername(email, input.username?.trim(), transaction);
        const id = node_crypto_1.default.randomUUID();
        const user = await models.User.create({
            id,
            email,
            username,
            firstName: input.firstName ?? null,
            lastName: input.lastName ?? null,
            role: isFirstUser ? 'admin' : (input.role ?? 'viewer'),
            active: input.active ?? true,
            passwordHash,
            avatarUrl: input.avatarUrl ?? null,
        }, { transaction });
        await profiles.createForUser(id, input.profile ?? {}, transaction);
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
    async function createUser(input, options = {}) {
        const email = normalizeEmail(input.email);
        if (!/^[^\s@]+@[^\s@]+$/.test(email))
            throw app_error_1.AppError.validation({ email: 'Invalid email address' });
        const username = input.username?.trim();
        if (username !== undefined && username !== '' && (username.length < USERNAME_MIN || username.length > USERNAME_MAX)) {
            throw app_error_1.AppError.validation({ username: `must be ${USERNAME_MIN} to ${USERNAME_MAX} characters` });
        }
        // Hash before any lock is taken: PBKDF2 takes tens of milliseconds.
        const passwordHash = input.password ? await passwords.hash(input.password) : null;
        await ensureClaimRow(options.transaction);
        try {
            if (options.transaction)
                return await insert(input, email, passwordHash, options, options.transaction);
            for (let attempt = 1;; attempt++) {
                try {
                    return await sequelize.transaction((transaction) => insert(input, email, passwordHash, options, transaction));
                }
                catch (err) {
                    if (!isRetryable(err) || attempt >= RETRIES)
                        throw err;
                    logger.debug({ attempt }, 'user creation deadlocked; retrying');
                }
            }
        }
        catch (err) {
            if (err instanceof sequelize_1.UniqueConstraintError)
                throw app_error_1.AppError.conflict(exports.USER_MESSAGES.duplicate);
            throw err;
        }
    }
    /** The user with this email (normalised), or null. */
    async function findByEmail(email) {
        return models.User.findOne({ where: { email: normalizeEmail(email) } });
    }
    /** Whether any admin exists (a quick pre-check; createUser's `no-admin` is the atomic one). */
    async function adminExists() {
        return (await models.User.count({ where: { role: 'admin' } })) > 0;
    }
    /** Whether any user exists (the registration form shows "disabled" only when a post would be refused). */
    async function anyUserExists() {
        return (await models.User.count()) > 0;
    }
    return { createUser, findByEmail, adminExists, anyUserExists, toPublicUser, normalizeEmail };
}
//# sourceMappingURL=user.service.js.map