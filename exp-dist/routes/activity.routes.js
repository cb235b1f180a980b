"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.activityRoutes = activityRoutes;
const zod_1 = require("zod");
const api_router_1 = require("../http/api-router");
const paging_1 = require("../http/paging");
const activity_service_1 = require("../services/activity.service");
const listQuery = zod_1.z.strictObject({
    ...paging_1.pagingQuery,
    action: zod_1.z.enum(activity_service_1.ACTIVITY_ACTIONS, { message: 'is not a known action' }).optional(),
    userId: zod_1.z.string().min(1).max(64).optional(),
});
const log = zod_1.z.object({
    id: zod_1.z.number().int(),
    action: zod_1.z.string(),
    userId: zod_1.z.string().nullable(),
    email: zod_1.z.string().nullable(),
    ip: zod_1.z.string().nullable(),
    userAgent: zod_1.z.string().nullable(),
    details: zod_1.z.record(zod_1.z.string(), zod_1.z.unknown()).nullable(),
    createdAt: zod_1.z.string(),
});
/** CONTRACT 4 activity log, behind `view:activity-logs`. */
function activityRoutes(container) {
    const { activity, guards } = container;
    const api = (0, api_router_1.createApiRouter)(container.docs, '/api');
    const viewLogs = [guards.requirePermission('view:activity-logs')];
    api.get('/activity-logs', {
        summary: 'The activity log, newest first (filter by action and user)',
        tags: ['Activity'],
        auth: true,
        query: listQuery,
        responses: { 200: { description: 'a page of entries', schema: zod_1.z.object({ logs: zod_1.z.array(log), total: zod_1.z.number().int() }) }, 400: 'bad paging or filter', 401: 'not signed in', 403: 'Insufficient permissions' },
    }, ...viewLogs, async (req, res) => {
        res.json(await activity.list(req.query));
    });
    return api.router;
}
//# sourceMappingURL=activity.routes.js.map