import { z } from 'zod';
import type { Request } from 'express';
import type { Container } from '../container';
import { createApiRouter } from '../http/api-router';
import { idParams, pagingQuery } from '../http/paging';
import { CONTENT_STATUSES } from '../models';
import type { ContentActor } from '../auth/content-policy';
import type { ContentInput, ContentListQuery } from '../services/content.service';

const status = z.enum(CONTENT_STATUSES, { message: `must be one of: ${CONTENT_STATUSES.join(', ')}` });
const title = z.string().trim().min(1, { message: 'is required' }).max(255, { message: 'must be at most 255 characters' });
// A TEXT column holds 65,535 bytes on MariaDB, so the limit is on the UTF-8 size, not the characters.
const MAX_BODY_BYTES = 65_535;
const body = z
  .string()
  .refine((value) => Buffer.byteLength(value, 'utf8') <= MAX_BODY_BYTES, { message: `must be at most ${MAX_BODY_BYTES} bytes` })
  .nullable();
const collectionId = z.string().min(1).max(64).nullable();

const listQuery = z.strictObject({ ...pagingQuery, status: status.optional(), collectionId: z.string().min(1).max(64).optional() });
const createBody = z.strictObject({ title, body: body.optional(), status: status.optional(), collectionId: collectionId.optional() });
const updateBody = z
  .strictObject({ title: title.optional(), body: body.optional(), status: status.optional(), collectionId: collectionId.optional() })
  .refine((fields) => Object.values(fields).some((value) => value !== undefined), { message: 'name at least one field to change' });

const item = z.object({
  id: z.string(),
  title: z.string(),
  body: z.string().nullable(),
  status,
  collectionId: z.string().nullable(),
  authorId: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
const itemResponse = z.object({ content: item });
const denials = { 401: 'not signed in', 403: 'Insufficient permissions' };

function actor(req: Request): ContentActor {
  const user = req.user as Express.User;
  return { id: user.id, role: user.role };
}

/**
 * CONTRACT 4 content. The guards here are the coarse, per-route half of the matrix; which item a user
 * may read, edit or delete is decided by contentPolicy in the service.
 */
export function contentRoutes(container: Container) {
  const { content, guards } = container;
  const api = createApiRouter(container.docs, '/api');
  const signedIn = [guards.requireAuth];
  const createContent = [guards.requirePermission('create:content')];
  // Everyone who may edit any item may edit their own, so this lets exactly the editing roles through.
  const editContent = [guards.requirePermission('edit:own-content')];
  // Likewise for deletion: the roles that may delete anything hold delete:own-content.
  const deleteContent = [guards.requirePermission('delete:own-content')];
  const tags = ['Content'];

  api.get(
    '/content',
    {
      summary: 'List content the caller may see (viewers: published only; authors: published and their own)',
      tags,
      auth: true,
      query: listQuery,
      responses: { 200: { description: 'a page of items', schema: z.object({ content: z.array(item), total: z.number().int() }) }, 400: 'bad paging or filter', 401: 'not signed in' },
    },
    ...signedIn,
    async (req, res) => {
      res.json(await content.list(actor(req), req.query as unknown as ContentListQuery));
    },
  );
  api.post(
    '/content',
    { summary: 'Create an item (draft unless another status is given and allowed)', tags, auth: true, body: createBody, responses: { 201: { description: 'created', schema: itemResponse }, 400: 'validation failed', ...denials } },
    ...createContent,
    async (req, res) => {
      res.status(201).json({ content: await content.create(actor(req), req.body as ContentInput) });
    },
  );
  api.get(
    '/content/:id',
    { summary: 'One item', tags, auth: true, params: idParams, responses: { 200: { description: 'the item', schema: itemResponse }, 404: 'no such item', ...denials } },
    ...signedIn,
    async (req, res) => {
      res.json({ content: await content.get(actor(req), req.params.id as string) });
    },
  );
  api.put(
    '/content/:id',
    { summary: 'Change an item (the fields given)', tags, auth: true, params: idParams, body: updateBody, responses: { 200: { description: 'changed', schema: itemResponse }, 400: 'validation failed', 404: 'no such item', ...denials } },
    ...editContent,
    async (req, res) => {
      res.json({ content: await content.update(actor(req), req.params.id as string, req.body as Partial<ContentInput>) });
    },
  );
  api.delete(
    '/content/:id',
    { summary: 'Delete an item', tags, auth: true, params: idParams, responses: { 204: 'deleted', 404: 'no such item', ...denials } },
    ...deleteContent,
    async (req, res) => {
      await content.remove(actor(req), req.params.id as string);
      res.status(204).end();
    },
  );
  return api.router;
}
