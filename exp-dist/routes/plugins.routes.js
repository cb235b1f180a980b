"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.pluginsRoutes = pluginsRoutes;
const zod_1 = require("zod");
const api_router_1 = require("../http/api-router");
const request_context_1 = require("../http/request-context");
const plugins_1 = require("../plugins");
const nameParams = zod_1.z.strictObject({ name: zod_1.z.string().min(1).max(64) });
const updateBody = zod_1.z
    .strictObject({
    active: zod_1.z.boolean({ message: 'must be true or false' }).optional(),
    settings: zod_1.z
        .record(zod_1.z.string(), zod_1.z.unknown(), { message: 'must be an object' })
        .optional()
        .describe(`Merged into the stored settings and validated as a whole; null removes a key; "${plugins_1.SECRET_MASK}" keeps a stored secret.`),
})
    .refine((body) => body.active !== undefined || body.settings !== undefined, { message: 'name active or settings' });
const plugin = zod_1.z.object({ name: zod_1.z.enum(plugins_1.PLUGIN_NAMES), active: zod_1.z.boolean(), settings: zod_1.z.record(zod_1.z.string(), zod_1.z.unknown()) });
const denials = { 401: 'not signed in', 403: 'Insufficient permissions' };
/** CONTRACT 4 plugins registry, behind `manage:plugins`. Secrets are masked in every answer. */
function pluginsRoutes(container) {
    const { plugins, guards } = container;
    const api = (0, api_router_1.createApiRouter)(container.docs, '/api');
    const managePlugins = [guards.requirePermission('manage:plugins')];
    const tags = ['Plugins'];
    api.get('/plugins', { summary: `Every plugin (${plugins_1.PLUGIN_NAMES.join(', ')}) with its settings, secrets masked`, tags, auth: true, responses: { 200: { description: 'plugins', schema: zod_1.z.object({ plugins: zod_1.z.array(plugin) }) }, ...denials } }, ...managePlugins, async (_req, res) => {
        res.json({ plugins: await plugins.list() });
    });
    api.get('/plugins/:name', { summary: 'One plugin, secrets masked', tags, auth: true, params: nameParams, responses: { 200: { description: 'the plugin', schema: zod_1.z.object({ plugin }) }, 404: 'unknown plugin', ...denials } }, ...managePlugins, async (req, res) => {
        res.json({ plugin: await plugins.get(req.params.name) });
    });
    api.put('/plugins/:name', {
        summary: 'Switch a plugin on or off and/or change its settings',
        tags,
        auth: true,
        params: nameParams,
        body: updateBody,
        responses: { 200: { description: 'the plugin', schema: zod_1.z.object({ plugin }) }, 400: 'validation failed (the field is named)', 404: 'unknown plugin', ...denials },
    }, ...managePlugins, async (req, res) => {
        const user = req.user;
        const audit = { actor: { id: user.id, email: user.email }, context: (0, request_context_1.requestContext)(req) };
        res.json({ plugin: await plugins.update(req.params.name, req.body, audit) });
    });
    return api.router;
}
//# sourceMappingURL=plugins.routes.js.map