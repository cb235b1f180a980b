import { z } from 'zod';
import type { Container } from '../container';
import { createApiRouter } from '../http/api-router';
import { idParams } from '../http/paging';
import type { CollectionInput } from '../services/collection.service';

const name = z.string().trim().min(1, { message: 'is required' }).max(100, { message: 'must be at most 100 characters' });
const description = z.string().max(10_000, { message: 'must be at most 10000 characters' }).nullable();
const createBody = z.strictObject({ name, description: description.optional() });
const updateBody = z
  .strictObject({ name: name.optional(), description: description.optional() })
  .refine((body) => body.name !== undefined || body.description !== undefined, { message: 'name at least one field to change' });

const collection = z.object({ id: z.string(), name: z.string(), description: z.string().nullable(), createdAt: z.string(), updatedAt: z.string() });
const collectionResponse = z.object({ collection });
const denials = { 401: 'not signed in', 403: 'Insufficient permissions' };

/** CONTRACT 4 collections: any signed-in user reads them; only `manage:collections` changes them. */
export function collectionsRoutes(container: Container) {
  const { collections, guards } = container;
  const api = createApiRouter(container.docs, '/api');
  const signedIn = [guards.requireAuth];
  const manageCollections = [guards.requirePermission('manage:collections')];
  const tags = ['Collections'];

  api.get(
    '/collections',
    { summary: 'List collections', tags, auth: true, responses: { 200: { description: 'all collections', schema: z.object({ collections: z.array(collection) }) }, 401: 'not signed in' } },
    ...signedIn,
    async (_req, res) => {
      res.json({ collections: await collections.list() });
    },
  );
  api.post(
    '/collections',
    { summary: 'Create a collection', tags, auth: true, body: createBody, responses: { 201: { description: 'created', schema: collectionResponse }, 400: 'validation failed', 409: 'name taken', ...denials } },
    ...manageCollections,
    async (req, res) => {
      res.status(201).json({ collection: await collections.create(req.body as CollectionInput) });
    },
  );
  api.put(
    '/collections/:id',
    { summary: 'Change a collection (the fields given)', tags, auth: true, params: idParams, body: updateBody, responses: { 200: { description: 'changed', schema: collectionResponse }, 400: 'validation failed', 404: 'no such collection', 409: 'name taken', ...denials } },
    ...manageCollections,
    async (req, res) => {
      res.json({ collection: await collections.update(req.params.id as string, req.body as Partial<CollectionInput>) });
    },
  );
  api.delete(
    '/collections/:id',
    { summary: 'Delete a collection (its items stay, without a collection)', tags, auth: true, params: idParams, responses: { 204: 'deleted', 404: 'no such collection', ...denials } },
    ...manageCollections,
    async (req, res) => {
      await collections.remove(req.params.id as string);
      res.status(204).end();
    },
  );
  return api.router;
}
