"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.usersRoutes = usersRoutes;
const zod_1 = require("zod");
const api_router_1 = require("../http/api-router");
const request_context_1 = require("../http/request-context");
const paging_1 = require("../http/paging");
const models_1 = require("../models");
const email = zod_1.z.string().trim().toLowerCase().max(255).pipe(zod_1.z.email({ message: 'must be a valid email address' }));
const username = zod_1.z
    .string()
    .trim()
    .min(3, { message: 'must be at least 3 characters' })
    .max(64, { message: 'must be at most 64 characters' })
    .regex(/^[\p{L}\p{N}._-]+$/u, { message: 'may contain letters, digits, dot, dash and underscore' });
const personName = zod_1.z.string().trim().max(100, { message: 'must be at most 100 characters' }).nullable();
const role = zod_1.z.enum(models_1.ROLES, { message: `must be one of: ${models_1.ROLES.join(', ')}` });
const listQuery = zod_1.z.strictObject({
    ...paging_1.pagingQuery,
    q: zod_1.z.string().trim().max(100, { message: 'must be at most 100 characters' }).optional(),
    role: role.optional(),
});
const createBody = zod_1.z.strictObject({
    email,
    password: zod_1.z.string().min(8, { message: 'must be at least 8 characters' }).max(128, { message: 'must be at most 128 characters' }).optional(),
    username: username.optional(),
    firstName: personName.optional(),
    lastName: personName.optional(),
    role: role.optional(),
});
const updateBody = zod_1.z
    .strictObject({
    role: role.optional(),
    active: zod_1.z.boolean({ message: 'must be true or false' }).optional(),
    username: username.optional(),
    firstName: personName.optional(),
    lastName: personName.optional(),
})
    .refine((body) => Object.values(body).some((value) => value !== undefined), { message: 'name at least one field to change' });
const adminUser = zod_1.z.object({
    id: zod_1.z.string(),
    email: zod_1.z.string(),
    username: zod_1.z.string(),
    firstName: zod_1.z.string().nullable(),
    lastName: zod_1.z.string().nullable(),
    role,
    active: zod_1.z.boolean(),
    createdAt: zod_1.z.string(),
});
const userResponse = zod_1.z.object({ user: adminUser });
const userList = zod_1.z.object({ users: zod_1.z.array(adminUser), total: zod_1.z.number().int(), page: zod_1.z.number().int(), limit: zod_1.z.number().int() });
const denials = { 401: 'not signed in', 403: 'Insufficient permissions' };
function audit(req) {
    const user = req.user;
    return { actor: { id: user.id, email: user.email }, context: (0, request_context_1.requestContext)(req) };
}
/** CONTRACT 4 users API, behind `manage:users`. */
function usersRoutes(container) {
    const { userAdmin, guards } = container;
    const api = (0, api_router_1.createApiRouter)(container.docs, '/api');
    const manageUsers = [guards.requirePermission('manage:users')];
    const tags = ['Users'];
    api.get('/users', { summary: 'List users (paged; search by email, username or name; filter by role)', tags, auth: true, query: listQuery, responses: { 200: { description: 'a page of users', schema: userList }, 400: 'bad paging or filter', ...denials } }, ...manageUsers, async (req, res) => {
        res.json(await userAdmin.list(req.query));
    });
    api.post('/users', { summary: 'Create a user (with or without a password)', tags, auth: true, body: createBody, responses: { 201: { description: 'created', schema: userResponse }, 400: 'validation failed', 409: 'email or username taken', ...denials } }, ...manageUsers, async (req, res) => {
        res.status(201).json({ user: await userAdmin.create(req.body, audit(req)) });
    });
    api.get('/users/:id', { summary: 'One user', tags, auth: true, params: paging_1.idParams, responses: { 200: { description: 'the user', schema: userResponse }, 404: 'no such user', ...denials } }, ...manageUsers, async (req, res) => {
        res.json({ user: await userAdmin.get(req.params.id) });
    });
    api.patch('/users/:id', {
        summary: 'Change role, active flag or names',
        description: 'A role change or deactivation ends the user\'s tokens at once. A change that would leave no active admin is refused with 409.',
        tags,
        auth: true,
        params: paging_1.idParams,
        body: updateBody,
        responses: { 200: { description: 'the changed user', schema: userResponse }, 400: 'validation failed', 404: 'no such user', 409: 'would leave no active admin, or username taken', ...denials },
    }, ...manageUsers, async (req, res) => {
        res.json({ user: await userAdmin.update(req.params.id, req.body, audit(req)) });
    });
    api.delete('/users/:id', {
        summary: 'Delete a user with their profile, OAuth links, codes and tokens',
        tags,
        auth: true,
        params: paging_1.idParams,
        responses: { 204: 'deleted', 404: 'no such user', 409: 'would leave no active admin', ...denials },
    }, ...manageUsers, async (req, res) => {
        await userAdmin.remove(req.params.id, audit(req));
        res.status(204).end();
    });
    return api.router;
}
//# sourceMappingURL=users.routes.js.map