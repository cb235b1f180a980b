"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.collectionsRoutes = collectionsRoutes;
const zod_1 = require("zod");
const api_router_1 = require("../http/api-router");
const paging_1 = require("../http/paging");
const name = zod_1.z.string().trim().min(1, { message: 'is required' }).max(100, { message: 'must be at most 100 characters' });
const description = zod_1.z.string().max(10_000, { message: 'must be at most 10000 characters' }).nullable();
const createBody = zod_1.z.strictObject({ name, description: description.optional() });
const updateBody = zod_1.z
    .strictObject({ name: name.optional(), description: description.optional() })
    .refine((body) => body.name !== undefined || body.description !== undefined, { message: 'name at least one field to change' });
const collection = zod_1.z.object({ id: zod_1.z.string(), name: zod_1.z.string(), description: zod_1.z.string().nullable(), createdAt: zod_1.z.string(), updatedAt: zod_1.z.string() });
const collectionResponse = zod_1.z.object({ collection });
const denials = { 401: 'not signed in', 403: 'Insufficient permissions' };
/** CONTRACT 4 collections: any signed-in user reads them; only `manage:collections` changes them. */
function collectionsRoutes(container) {
    const { collections, guards } = container;
    const api = (0, api_router_1.createApiRouter)(container.docs, '/api');
    const signedIn = [guards.requireAuth];
    const manageCollections = [guards.requirePermission('manage:collections')];
    const tags = ['Collections'];
    api.get('/collections', { summary: 'List collections', tags, auth: true, responses: { 200: { description: 'all collections', schema: zod_1.z.object({ collections: zod_1.z.array(collection) }) }, 401: 'not signed in' } }, ...signedIn, async (_req, res) => {
        res.json({ collections: await collections.list() });
    });
    api.post('/collections', { summary: 'Create a collection', tags, auth: true, body: createBody, responses: { 201: { description: 'created', schema: collectionResponse }, 400: 'validation failed', 409: 'name taken', ...denials } }, ...manageCollections, async (req, res) => {
        res.status(201).json({ collection: await collections.create(req.body) });
    });
    api.put('/collections/:id', { summary: 'Change a collection (the fields given)', tags, auth: true, params: paging_1.idParams, body: updateBody, responses: { 200: { description: 'changed', schema: collectionResponse }, 400: 'validation failed', 404: 'no such collection', 409: 'name taken', ...denials } }, ...manageCollections, async (req, res) => {
        res.json({ collection: await collections.update(req.params.id, req.body) });
    });
    api.delete('/collections/:id', { summary: 'Delete a collection (its items stay, without a collection)', tags, auth: true, params: paging_1.idParams, responses: { 204: 'deleted', 404: 'no such collection', ...denials } }, ...manageCollections, async (req, res) => {
        await collections.remove(req.params.id);
        res.status(204).end();
    });
    return api.router;
}
//# sourceMappingURL=collections.routes.js.map