import { z } from 'zod';
import type { Endpoint } from '../http/api-router';
import { JWT_ALGORITHMS } from '../config/config';

const signingKey = z.object({
  kid: z.string(),
  algorithm: z.enum(JWT_ALGORITHMS),
  createdAt: z.string().nullable().describe('ISO 8601; null for the HS256 key (JWT_SECRET)'),
  retiresAt: z.string().nullable().describe('ISO 8601: when it stops verifying and leaves the JWKS; null while it signs'),
  signing: z.boolean().describe('new tokens are signed with this key'),
});
const jwk = z.object({ kty: z.string(), kid: z.string(), alg: z.string(), use: z.string() }).catchall(z.unknown());

const denials = { 401: 'not signed in', 403: 'Insufficient permissions' };

/** CONTRACT 11: the keys tokens are signed with, their rotation, and what other services read to verify alone. */
export const SIGNING_KEY_ENDPOINTS = {
  list: {
    summary: 'The token signing keys still verifying, newest first',
    tags: ['Settings'],
    auth: true,
    responses: { 200: { description: 'the keys', schema: z.object({ keys: z.array(signingKey) }) }, ...denials },
  },
  rotate: {
    summary: 'Make a new signing key, used at once by every instance; older keys verify until their tokens are past',
    tags: ['Settings'],
    auth: true,
    responses: {
      200: { description: 'the new key', schema: z.object({ key: signingKey }) },
      409: 'JWT_ALGORITHM is HS256: tokens are signed with JWT_SECRET, which the environment holds',
      ...denials,
    },
  },
  jwks: {
    summary: 'The public keys that verify this service’s tokens (JWK Set; empty under HS256)',
    tags: ['Discovery'],
    responses: { 200: { description: 'JWK Set, Cache-Control: public, max-age=300', schema: z.object({ keys: z.array(jwk) }) } },
  },
} satisfies Record<string, Endpoint>;
