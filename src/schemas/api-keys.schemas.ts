import { z } from 'zod';
import type { Endpoint } from '../http/api-router';
import { PERMISSIONS } from '../access/permissions';
import { API_KEY_MAX_DAYS } from '../services/security/api-key.service';

const keyId = z.uuid({ message: 'must be an API key id' });
const userId = z.string().min(1).max(64, { message: 'must be at most 64 characters' });
export const apiKeyParams = z.strictObject({ id: keyId });
export const userApiKeyParams = z.strictObject({ id: userId, keyId });
const userParams = z.strictObject({ id: userId });

/** The one rule for a new key: the JSON body and the profile page's form alike. */
export const apiKeyCreate = z.strictObject({
  name: z.string().trim().min(1).max(100),
  permissions: z
    .array(z.enum(PERMISSIONS, { message: `must list permissions among ${PERMISSIONS.join(', ')}` }))
    .max(PERMISSIONS.length)
    .optional()
    .describe("a subset of the owner's role's permissions; default all of them"),
  expiresInDays: z.int().min(1).max(API_KEY_MAX_DAYS).optional().describe('absent: the key never expires'),
});

const apiKey = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string().describe('the first characters of the key (ak_ and six more), to tell keys apart'),
  permissions: z.array(z.enum(PERMISSIONS)),
  createdAt: z.string().describe('ISO 8601'),
  expiresAt: z.string().nullable().describe('ISO 8601; null: never'),
  lastUsedAt: z.string().nullable().describe('ISO 8601; moves at most once a minute'),
});
const created = z.object({ apiKey, key: z.string().describe('the key itself (ak_…): shown this once, never again') });
const keyList = z.object({ apiKeys: z.array(apiKey) });

const stepUp = { 403: '"Recent sign-in required" with stepUp: true, or "Not allowed with an API key"' };
const tags = ['API keys'];
const adminDenials = { 401: 'not signed in', 403: 'Insufficient permissions' };

/** CONTRACT 11: the signed-in user's API keys, and an admin's view of anyone's. */
export const API_KEY_ENDPOINTS = {
  create: {
    summary: 'Make an API key (shown this once) acting as you with some or all of your permissions',
    tags,
    auth: true,
    body: apiKeyCreate,
    responses: { 201: { description: 'the key, and what it is', schema: created }, 409: 'you hold the most keys allowed', ...stepUp },
  },
  mine: {
    summary: 'Your API keys (not revoked), newest first',
    tags,
    auth: true,
    responses: { 200: { description: 'your keys', schema: keyList }, 403: 'Not allowed with an API key' },
  },
  revokeMine: {
    summary: 'Revoke one of your API keys (at once, on every instance)',
    tags,
    auth: true,
    params: apiKeyParams,
    responses: { 204: 'revoked', 404: 'no live key of yours has that id', 403: 'Not allowed with an API key' },
  },
  ofUser: {
    summary: "A user's API keys",
    tags: ['Users'],
    auth: true,
    params: userParams,
    responses: { 200: { description: 'their keys', schema: keyList }, 404: 'no such user', ...adminDenials },
  },
  revokeOfUser: {
    summary: "Revoke one of a user's API keys",
    tags: ['Users'],
    auth: true,
    params: userApiKeyParams,
    responses: { 204: 'revoked', 404: 'no such user, or no live key of theirs with that id', ...adminDenials },
  },
} satisfies Record<string, Endpoint>;
