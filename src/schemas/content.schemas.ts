import { z } from 'zod';
import type { Endpoint } from '../http/api-router';
import { idParams, pagingQuery } from '../http/paging';
import { CONTENT_STATUSES } from '../models';

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
const itemList = z.object({ content: z.array(item), total: z.number().int() });

const denials = { 401: 'not signed in', 403: 'Insufficient permissions' };
const tags = ['Content'];

/** The OpenAPI description (and, through its schemas, the validation) of each /api/content endpoint. */
export const CONTENT_ENDPOINTS = {
  list: {
    summary: 'List content the caller may see (viewers: published only; authors: published and their own)',
    tags,
    auth: true,
    apiKey: true,
    query: listQuery,
    responses: { 200: { description: 'a page of items', schema: itemList }, 400: 'bad paging or filter', 401: 'not signed in' },
  },
  create: {
    summary: 'Create an item (draft unless another status is given and allowed)',
    tags,
    auth: true,
    apiKey: true,
    body: createBody,
    responses: { 201: { description: 'created', schema: itemResponse }, 400: 'validation failed', ...denials },
  },
  get: {
    summary: 'One item',
    tags,
    auth: true,
    apiKey: true,
    params: idParams,
    responses: { 200: { description: 'the item', schema: itemResponse }, 404: 'no such item', ...denials },
  },
  update: {
    summary: 'Change an item (the fields given)',
    tags,
    auth: true,
    apiKey: true,
    params: idParams,
    body: updateBody,
    responses: { 200: { description: 'changed', schema: itemResponse }, 400: 'validation failed', 404: 'no such item', ...denials },
  },
  remove: {
    summary: 'Delete an item',
    tags,
    auth: true,
    apiKey: true,
    params: idParams,
    responses: { 204: 'deleted', 404: 'no such item', ...denials },
  },
} satisfies Record<string, Endpoint>;
