"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.contentRoutes = contentRoutes;
const zod_1 = require("zod");
const api_router_1 = require("../http/api-router");
const paging_1 = require("../http/paging");
const models_1 = require("../models");
const status = zod_1.z.enum(models_1.CONTENT_STATUSES, { message: `must be one of: ${models_1.CONTENT_STATUSES.join(', ')}` });
const title = zod_1.z.string().trim().min(1, { message: 'is required' }).max(255, { message: 'must be at most 255 characters' });
// A TEXT column holds 65,535 bytes on MariaDB, so the limit is on the UTF-8 size, not the characters.
const MAX_BODY_BYTES = 65_535;
const body = zod_1.z
    .string()
    .refine((value) => Buffer.byteLength(value, 'utf8') <= MAX_BODY_BYTES, { message: `must be at most ${MAX_BODY_BYTES} bytes` })
    .nullable();
const collectionId = zod_1.z.string().min(1).max(64).nullable();
const listQuery = zod_1.z.strictObject({ ...paging_1.pagingQuery, status: status.optional(), collectionId: zod_1.z.string().min(1).max(64).optional() });
const createBody = zod_1.z.strictObject({ title, body: body.optional(), status: status.optional(), collectionId: collectionId.optional() });
const updateBody = zod_1.z
    .strictObject({ title: title.optional(), body: body.optional(), status: status.optional(), collectionId: collectionId.optional() })
    .refine((fields) => Object.values(fields).some((value) => value !== undefined), { message: 'name at least one field to change' });
const item = zod_1.z.object({
    id: zod_1.z.string(),
    title: zod_1.z.string(),
    body: zod_1.z.string().nullable(),
    status,
    collectionId: zod_1.z.string().nullable(),
    authorId: zod_1.z.string().nullable(),
    createdAt: zod_1.z.string(),
    updatedAt: zod_1.z.string(),
});
const itemResponse = zod_1.z.object({ content: item });
const denials = { 401: 'not signed in', 403: 'Insufficient permissions' };
function actor(req) {
    const user = req.user;
    return { id: user.id, role: user.role };
}
/**
 * CONTRACT 4 content. The guards here are the coarse, per-route half of the matrix; which item a user
 * may read, edit or delete is decided by contentPolicy in the service.
 */
function contentRoutes(container) {
    const { content, guards } = container;
    const api = (0, api_router_1.createApiRouter)(container.docs, '/api');
    const signedIn = [guards.requireAuth];
    const createContent = [guards.requirePermission('create:content')];
    // Everyone who may edit any item may edit their own, so this lets exactly the editing roles through.
    const editContent = [guards.requirePermission('edit:own-content')];
    // Likewise for deletion: the roles that may delete anything hold delete:own-content.
    const deleteContent = [guards.requirePermission('delete:own-content')];
    const tags = ['Content'];
    api.get('/content', {
        summary: 'List content the caller may see (viewers: published only; authors: published and their own)',
        tags,
        auth: true,
        query: listQuery,
        responses: { 200: { description: 'a page of items', schema: zod_1.z.object({ content: zod_1.z.array(item), total: zod_1.z.number().int() }) }, 400: 'bad paging or filter', 401: 'not signed in' },
    }, ...signedIn, async (req, res) => {
        res.json(await content.list(actor(req), req.query));
    });
    api.post('/content', { summary: 'Create an item (draft unless another status is given and allowed)', tags, auth: true, body: createBody, responses: { 201: { description: 'created', schema: itemResponse }, 400: 'validation failed', ...denials } }, ...createContent, async (req, res) => {
        res.status(201).json({ content: await content.create(actor(req), req.body) });
    });
    api.get('/content/:id', { summary: 'One item', tags, auth: true, params: paging_1.idParams, responses: { 200: { description: 'the item', schema: itemResponse }, 404: 'no such item', ...denials } }, ...signedIn, async (req, res) => {
        res.json({ content: await content.get(actor(req), req.params.id) });
    });
    api.put('/content/:id', { summary: 'Change an item (the fields given)', tags, auth: true, params: paging_1.idParams, body: updateBody, responses: { 200: { description: 'changed', schema: itemResponse }, 400: 'validation failed', 404: 'no such item', ...denials } }, ...editContent, async (req, res) => {
        res.json({ content: await content.update(actor(req), req.params.id, req.body) });
    });
    api.delete('/content/:id', { summary: 'Delete an item', tags, auth: true, params: paging_1.idParams, responses: { 204: 'deleted', 404: 'no such item', ...denials } }, ...deleteContent, async (req, res) => {
        await content.remove(actor(req), req.params.id);
        res.status(204).end();
    });
    return api.router;
}
//# sourceMappingURL=content.routes.js.map