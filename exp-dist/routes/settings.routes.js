"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.settingsRoutes = settingsRoutes;
const zod_1 = require("zod");
const api_router_1 = require("../http/api-router");
const request_context_1 = require("../http/request-context");
const duration_1 = require("../config/duration");
const MIN_LIFETIME_SECONDS = 60;
const MAX_LIFETIME_SECONDS = 365 * 86_400;
const MAX_GRACE_SECONDS = 365 * 86_400;
const lifetime = zod_1.z
    .string({ message: 'must be a duration such as 30d, 12h, 3600s or a number of seconds' })
    .trim()
    .max(20, { message: 'must be a duration such as 30d, 12h, 3600s or a number of seconds' })
    .refine((value) => {
    const seconds = (0, duration_1.parseDurationSeconds)(value);
    return seconds !== null && seconds >= MIN_LIFETIME_SECONDS && seconds <= MAX_LIFETIME_SECONDS;
}, { message: `must be a duration such as 30d, 12h, 3600s or a number of seconds, from ${MIN_LIFETIME_SECONDS}s to 365d` });
const updateBody = zod_1.z
    .strictObject({
    jwtExpiresIn: lifetime.optional(),
    jwtRefreshGraceSeconds: zod_1.z
        .int({ message: 'must be a whole number of seconds' })
        .min(0, { message: 'must be at least 0' })
        .max(MAX_GRACE_SECONDS, { message: `must be at most ${MAX_GRACE_SECONDS}` })
        .optional(),
    allowRegistration: zod_1.z.boolean({ message: 'must be true or false' }).optional(),
})
    .refine((body) => Object.values(body).some((value) => value !== undefined), { message: 'name at least one setting' });
const source = zod_1.z.enum(['env', 'admin', 'default']);
const securitySettings = zod_1.z.object({
    jwtExpiresIn: zod_1.z.object({ value: zod_1.z.string(), seconds: zod_1.z.number().int(), source }),
    jwtRefreshGraceSeconds: zod_1.z.object({ value: zod_1.z.number().int(), seconds: zod_1.z.number().int(), source }),
    allowRegistration: zod_1.z.object({ value: zod_1.z.boolean(), source }),
});
const denials = { 401: 'not signed in', 403: 'Insufficient permissions' };
/** CONTRACT 4 security settings, behind `manage:settings`. Environment values win over stored ones. */
function settingsRoutes(container) {
    const { settings, activity, guards } = container;
    const api = (0, api_router_1.createApiRouter)(container.docs, '/api');
    const manageSettings = [guards.requirePermission('manage:settings')];
    const tags = ['Settings'];
    api.get('/settings/security', { summary: 'Token lifetime, refresh grace and registration switch, each with its source', tags, auth: true, responses: { 200: { description: 'the resolved settings', schema: securitySettings }, ...denials } }, ...manageSettings, async (_req, res) => {
        res.json(await settings.getSecuritySettings());
    });
    api.put('/settings/security', {
        summary: 'Store admin values (a value under an environment variable stays inactive)',
        tags,
        auth: true,
        body: updateBody,
        responses: { 200: { description: 'the resolved settings', schema: securitySettings }, 400: 'validation failed', ...denials },
    }, ...manageSettings, async (req, res) => {
        const update = req.body;
        const before = await settings.getSecuritySettings();
        const after = await settings.updateSecuritySettings(update);
        const changes = Object.fromEntries(Object.keys(update)
            .filter((key) => update[key] !== undefined)
            .map((key) => [key, { from: before[key].value, to: update[key], source: after[key].source }]));
        const user = req.user;
        await activity.record({ action: 'settings.updated', userId: user.id, email: user.email, details: { changes } }, (0, request_context_1.requestContext)(req));
        res.json(after);
    });
    return api.router;
}
//# sourceMappingURL=settings.routes.js.map