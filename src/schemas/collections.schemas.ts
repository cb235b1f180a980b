import { z } from 'zod';
import type { Endpoint } from '../http/api-router';
import { idParams } from '../http/paging';

const name = z.string().trim().min(1, { message: 'is required' }).max(100, { message: 'must be at most 100 characters' });
const description = z.string().max(10_000, { message: 'must be at most 10000 characters' }).nullable();
const createBody = z.strictObject({ name, description: description.optional() });
const updateBody = z
  .strictObject({ name: name.optional(), description: description.optional() })
  .refine((body) => body.name !== undefined || body.description !== undefined, { message: 'name at least one field to change' });

const collection = z.object({ id: z.string(), name: z.string(), description: z.string().nullable(), createdAt: z.string(), updatedAt: z.string() });
const collectionResponse = z.object({ collection });
const collectionList = z.object({ collections: z.array(collection) });

const denials = { 401: 'not signed in', 403: 'Insufficient permissions' };
const tags = ['Collections'];

/** The OpenAPI description (and, through its schemas, the validation) of each /api/collections endpoint. */
export const COLLECTIONS_ENDPOINTS = {
  list: {
    summary: 'List collections',
    tags,
    auth: true,
    apiKey: true,
    // No paging or filters: an unknown query parameter is refused, as on every other list.
    query: z.strictObject({}),
    responses: { 200: { description: 'all collections', schema: collectionList }, 401: 'not signed in' },
  },
  create: {
    summary: 'Create a collection',
    tags,
    auth: true,
    apiKey: true,
    body: createBody,
    responses: { 201: { description: 'created', schema: collectionResponse }, 400: 'validation failed', 409: 'name taken', ...denials },
  },
  update: {
    summary: 'Change a collection (the fields given)',
    tags,
    auth: true,
    apiKey: true,
    params: idParams,
    body: updateBody,
    responses: {
      200: { description: 'changed', schema: collectionResponse },
      400: 'validation failed',
      404: 'no such collection',
      409: 'name taken',
      ...denials,
    },
  },
  remove: {
    summary: 'Delete a collection (its items stay, without a collection)',
    tags,
    auth: true,
    apiKey: true,
    params: idParams,
    responses: { 204: 'deleted', 404: 'no such collection', ...denials },
  },
} satisfies Record<string, Endpoint>;
