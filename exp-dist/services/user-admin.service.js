"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.USER_ADMIN_MESSAGES = void 0;
exports.toAdminUserView = toAdminUserView;
exports.createUserAdminService = createUserAdminService;
const sequelize_1 = require("sequelize");
const app_error_1 = require("../http/app-error");
const transaction_retry_1 = require("../db/transaction-retry");
exports.USER_ADMIN_MESSAGES = {
    notFound: 'User not found',
    lastAdmin: 'This change would leave no active admin: promote or activate another admin first',
    duplicate: 'User with this email or username already exists',
};
const NAME_FIELDS = ['username', 'firstName', 'lastName'];
const SEARCH_COLUMNS = ['email', 'username', 'first_name', 'last_name'];
// LIKE escape character: `!` rather than a backslash, whose meaning inside string literals differs
// between MariaDB and SQLite.
const LIKE_ESCAPE = '!';
function toAdminUserView(user) {
    return {
        id: user.id,
        email: user.email,
        username: user.username,
        firstName: user.firstName ?? null,
        lastName: user.lastName ?? null,
        role: user.role,
        active: Boolean(user.active),
        createdAt: user.createdAt,
    };
}
/**
 * User administration (`manage:users`). The invariant it keeps: there is always at least one active
 * admin. Every change that could remove one (demotion, deactivation, deletion) locks the set of active
 * admins (`SELECT … FOR UPDATE` on MariaDB; SQLite transactions are IMMEDIATE, i.e. serialised) and
 * counts it in the same transaction as the write, so two admins demoting each other at once cannot
 * both succeed. Role changes, deactivation and deletion end the user's tokens at once.
 */
function createUserAdminService(deps) {
    const { sequelize, models, tokens, activity, users } = deps;
    const quote = (name) => sequelize.getQueryInterface().quoteIdentifier(name);
    function searchCondition(q) {
        const pattern = `%${q.replace(/[!%_]/g, (c) => LIKE_ESCAPE + c)}%`;
        const escaped = sequelize.escape(pattern);
        return {
            [sequelize_1.Op.or]: SEARCH_COLUMNS.map((column) => (0, sequelize_1.literal)(`${quote(column)} LIKE ${escaped} ESCAPE '${LIKE_ESCAPE}'`)),
        };
    }
    /** One page of users, newest first, filtered by a search string and/or role. */
    async function list(query) {
        const conditions = [];
        if (query.role)
            conditions.push({ role: query.role });
        if (query.q)
            conditions.push(searchCondition(query.q));
        const { rows, count } = await models.User.findAndCountAll({
            where: { [sequelize_1.Op.and]: conditions },
            order: [
                ['createdAt', 'DESC'],
                ['id', 'DESC'],
            ],
            limit: query.limit,
            offset: (query.page - 1) * query.limit,
        });
        return { users: rows.map(toAdminUserView), total: count, page: query.page, limit: query.limit };
    }
    async function get(id) {
        const user = await models.User.findByPk(id);
        if (!user)
            throw app_error_1.AppError.notFound(exports.USER_ADMIN_MESSAGES.notFound);
        return toAdminUserView(user);
    }
    /** Creates a user through the one creation path (user.service): email normalised, profile row included. */
    async function create(input, audit) {
        const newUser = {
            email: input.email,
            password: input.password ?? null,
            username: input.username ?? null,
            firstName: input.firstName ?? null,
            lastName: input.lastName ?? null,
            role: input.role ?? 'viewer',
        };
        const user = await users.createUser(newUser);
        await activity.record({
            action: 'user.created',
            userId: audit.actor.id,
            email: audit.actor.email,
            details: { targetUserId: user.id, targetEmail: user.email, role: user.role, withPassword: input.password !== undefined },
        }, audit.context);
        return toAdminUserView(user);
    }
    /** Locks every active admin row (in one order) and answers their ids. */
    async function lockActiveAdmins(transaction) {
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
    function assertAnotherAdminRemains(activeAdmins, userId) {
        if (activeAdmins.has(userId) && activeAdmins.size <= 1)
            throw app_error_1.AppError.conflict(exports.USER_ADMIN_MESSAGES.lastAdmin);
    }
    async function usernameTaken(username, exceptId, transaction) {
        const found = await models.User.findOne({
            attributes: ['id'],
            where: { [sequelize_1.Op.and]: [(0, sequelize_1.where)((0, sequelize_1.fn)('lower', (0, sequelize_1.col)('username')), username.toLowerCase()), { id: { [sequelize_1.Op.ne]: exceptId } }] },
            transaction,
        });
        return found !== null;
    }
    /**
     * Changes role, active flag and names. A change that would leave no active admin is refused with 409;
     * a role change or deactivation ends the user's tokens in the same transaction.
     */
    async function update(id, input, audit) {
        const affectsAdmins = input.role !== undefined || input.active !== undefined;
        const outcome = await (0, transaction_retry_1.transactionWithRetry)(sequelize, async (transaction) => {
            // Admin rows first, then the target: every writer takes the locks in this order.
            const activeAdmins = affectsAdmins ? await lockActiveAdmins(transaction) : new Set();
            const user = await models.User.findByPk(id, { transaction, lock: transaction.LOCK.UPDATE });
            if (!user)
                throw app_error_1.AppError.notFound(exports.USER_ADMIN_MESSAGES.notFound);
            const changes = {};
            if (input.role !== undefined && input.role !== user.role)
                changes.role = { from: user.role, to: input.role };
            if (input.active !== undefined && input.active !== Boolean(user.active))
                changes.active = { from: Boolean(user.active), to: input.active };
            for (const field of NAME_FIELDS) {
                const value = input[field];
                if (value !== undefined && value !== user[field])
                    changes[field] = { from: user[field], to: value };
            }
            if (Object.keys(changes).length === 0)
                return { user, changes };
            const losesAdmin = (changes.role && changes.role.from === 'admin') || changes.active?.to === false;
            if (losesAdmin)
                assertAnotherAdminRemains(activeAdmins, user.id);
            if (changes.username && (await usernameTaken(input.username, user.id, transaction))) {
                throw app_error_1.AppError.conflict(exports.USER_ADMIN_MESSAGES.duplicate);
            }
            user.set(Object.fromEntries(Object.entries(changes).map(([field, change]) => [field, change.to])));
            await user.save({ transaction });
            if (changes.role || changes.active?.to === false)
                await tokens.revokeAllForUser(user.id, { transaction });
            return { user, changes };
        }).catch((err) => {
            if (err instanceof sequelize_1.UniqueConstraintError)
                throw app_error_1.AppError.conflict(exports.USER_ADMIN_MESSAGES.duplicate);
            throw err;
        });
        const { user, changes } = outcome;
        if (Object.keys(changes).length === 0)
            return toAdminUserView(user);
        // Name changes keep the tokens but make cached verification results (and so /auth/me) stale.
        if (!changes.role && changes.active?.to !== false)
            await tokens.userChanged(user.id);
        await activity.record({ action: 'user.updated', userId: audit.actor.id, email: audit.actor.email, details: { targetUserId: user.id, targetEmail: user.email, changes } }, audit.context);
        return toAdminUserView(user);
    }
    /**
     * Deletes a user with everything that is theirs: profile, OAuth links and reset tokens go with the
     * row (foreign keys cascade), OTP codes and magic-link tokens are removed by email, and their
     * tokens end at once. Their content stays, authorless. Deleting the last active admin is refused.
     */
    async function remove(id, audit) {
        const email = await (0, transaction_retry_1.transactionWithRetry)(sequelize, async (transaction) => {
            const activeAdmins = await lockActiveAdmins(transaction);
            const user = await models.User.findByPk(id, { transaction, lock: transaction.LOCK.UPDATE });
            if (!user)
                throw app_error_1.AppError.notFound(exports.USER_ADMIN_MESSAGES.notFound);
            assertAnotherAdminRemains(activeAdmins, user.id);
            await tokens.revokeAllForUser(user.id, { transaction });
            await models.OtpCode.destroy({ where: { userEmail: user.email }, transaction });
            await models.AuthVerification.destroy({ where: { identifier: user.email }, transaction });
            await user.destroy({ transaction });
            return user.email;
        });
        await activity.record({ action: 'user.deleted', userId: audit.actor.id, email: audit.actor.email, details: { targetUserId: id, targetEmail: email } }, audit.context);
    }
    return { list, get, create, update, remove };
}
//# sourceMappingURL=user-admin.service.js.map