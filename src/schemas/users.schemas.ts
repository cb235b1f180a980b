import { z } from 'zod';
import type { Endpoint } from '../http/api-router';
import { idParams, pagingQuery } from '../http/paging';
import { email, judgedPassword, newPassword, personName, username } from './input-rules';
import { ROLES } from '../models';
import { SEARCH_TOTAL_LIMIT, TOTAL_EXACT_HEADER, TOTAL_LIMIT } from '../services/accounts/user-list';

const nullableName = personName.nullable();
const role = z.enum(ROLES, { message: `must be one of: ${ROLES.join(', ')}` });

const listQuery = z.strictObject({
  ...pagingQuery,
  q: z.string().trim().max(100, { message: 'must be at most 100 characters' }).optional(),
  role: role.optional(),
  // CONTRACT 12: `false` lists the accounts whose address is unproven (the page's "unverified" filter).
  verified: z.enum(['true', 'false'], { message: 'must be true or false' }).transform((value) => value === 'true').optional(),
});
const createBody = judgedPassword(
  z.strictObject({
    email,
    password: newPassword.optional(),
    username: username.optional(),
    firstName: nullableName.optional(),
    lastName: nullableName.optional(),
    role: role.optional(),
  }),
);
const updateBody = z
  .strictObject({
    role: role.optional(),
    active: z.boolean({ message: 'must be true or false' }).optional(),
    username: username.optional(),
    firstName: nullableName.optional(),
    lastName: nullableName.optional(),
    emailVerified: z.boolean({ message: 'must be true or false' }).optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), { message: 'name at least one field to change' });

const adminUser = z.object({
  id: z.string(),
  email: z.string(),
  username: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  role,
  active: z.boolean(),
  emailVerified: z.boolean(),
  createdAt: z.string(),
});
const userResponse = z.object({ user: adminUser });
const userList = z.object({
  users: z.array(adminUser),
  total: z
    .number()
    .int()
    .describe(`users matching, counted up to ${TOTAL_LIMIT} (${SEARCH_TOTAL_LIMIT} for a search); past that, total is the limit and the ${TOTAL_EXACT_HEADER} header says false`),
  page: z.number().int(),
  limit: z.number().int(),
});

const denials = { 401: 'not signed in', 403: 'Insufficient permissions' };
const tags = ['Users'];

/** The OpenAPI description (and, through its schemas, the validation) of each /api/users endpoint. */
export const USERS_ENDPOINTS = {
  list: {
    summary: 'List users (paged; search by email, username or name; filter by role)',
    tags,
    auth: true,
    apiKey: true,
    query: listQuery,
    responses: { 200: { description: 'a page of users', schema: userList }, 400: 'bad paging or filter', ...denials },
  },
  create: {
    summary: 'Create a user (with or without a password)',
    tags,
    auth: true,
    apiKey: true,
    body: createBody,
    responses: { 201: { description: 'created', schema: userResponse }, 400: 'validation failed', 409: 'email or username taken', ...denials },
  },
  get: {
    summary: 'One user',
    tags,
    auth: true,
    apiKey: true,
    params: idParams,
    responses: { 200: { description: 'the user', schema: userResponse }, 404: 'no such user', ...denials },
  },
  update: {
    summary: 'Change role, active flag, names, or mark the email address verified',
    description: "A role change or deactivation ends the user's tokens at once. A change that would leave no active admin is refused with 409.",
    tags,
    auth: true,
    apiKey: true,
    params: idParams,
    body: updateBody,
    responses: {
      200: { description: 'the changed user', schema: userResponse },
      400: 'validation failed',
      404: 'no such user',
      409: 'would leave no active admin, or username taken',
      ...denials,
    },
  },
  remove: {
    summary: 'Delete a user with their profile, OAuth links, codes and tokens',
    tags,
    auth: true,
    apiKey: true,
    params: idParams,
    responses: { 204: 'deleted', 404: 'no such user', 409: 'would leave no active admin', ...denials },
  },
} satisfies Record<string, Endpoint>;
