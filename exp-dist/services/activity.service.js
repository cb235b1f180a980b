"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ACTIVITY_ACTIONS = void 0;
exports.createActivityService = createActivityService;
exports.ACTIVITY_ACTIONS = [
    'auth.login',
    'auth.login_failed',
    'auth.logout',
    'auth.register',
    'auth.refresh',
    'auth.password_reset_requested',
    'auth.password_reset',
    'auth.otp_verified',
    'auth.magic_link_used',
    'oauth.login',
    'oauth.linked',
    'oauth.unlinked',
    'user.created',
    'user.updated',
    'user.deleted',
    'settings.updated',
    'plugin.updated',
];
/** The activity log: who did what, from where. Writing it never fails the request it describes. */
function createActivityService({ models, logger }) {
    async function record(entry, context) {
        try {
            await models.ActivityLog.create({
                action: entry.action,
                userId: entry.userId ?? null,
                email: entry.email ?? null,
                ip: context.ip,
                userAgent: context.userAgent,
                details: entry.details ?? null,
            });
        }
        catch (err) {
            logger.error({ err: err.message, action: entry.action }, 'could not write the activity log');
        }
    }
    /** One page of the log, newest first, filtered by action and/or user. */
    async function list(filter) {
        const where = {};
        if (filter.action)
            where.action = filter.action;
        if (filter.userId)
            where.userId = filter.userId;
        const { rows, count } = await models.ActivityLog.findAndCountAll({
            where,
            // The id breaks ties between entries written in the same millisecond.
            order: [
                ['createdAt', 'DESC'],
                ['id', 'DESC'],
            ],
            limit: filter.limit,
            offset: (filter.page - 1) * filter.limit,
        });
        const logs = rows.map((row) => ({
            id: row.id,
            action: row.action,
            userId: row.userId,
            email: row.email,
            ip: row.ip,
            userAgent: row.userAgent,
            details: row.details,
            createdAt: row.createdAt,
        }));
        return { logs, total: count };
    }
    return { record, list };
}
//# sourceMappingURL=activity.service.js.map