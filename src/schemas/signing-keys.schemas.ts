import { z } from 'zod';
import type { Endpoint } from '../http/api-router';
import { JWT_ALGORITHMS } from '../config/config';
import { KEY_PURPOSES } from '../sessions/signing-keys';

const signingKey = z.object({
  kid: z.string(),
  algorithm: z.enum(JWT_ALGORITHMS),
  createdAt: z.string().nullable().describe('ISO 8601; null for the HS256 key (JWT_SECRET) and for OpenID Provider keys made before they rotated'),
  retiresAt: z.string().nullable().describe('ISO 8601: when it stops verifying and leaves the JWKS; null while it signs'),
  signing: z.boolean().describe('new tokens are signed with this key'),
  signs: z.enum(KEY_PURPOSES).describe('the service’s own tokens, or the OpenID Provider’s ID or access tokens (CONTRACT 14)'),
});
const jwk = z.object({ kty: z.string(), kid: z.string(), alg: z.string(), use: z.string() }).catchall(z.unknown());

const denials = { 401: 'not signed in', 403: 'Insufficient permissions' };

/** CONTRACT 11: the keys tokens are signed with, their rotation, and what other services read to verify alone. */
export const SIGNING_KEY_ENDPOINTS = {
  list: {
    summary: 'The token signing keys still verifying: the service’s, newest first, then the OpenID Provider’s',
    tags: ['Settings'],
    auth: true,
    responses: { 200: { description: 'the keys', schema: z.object({ keys: z.array(signingKey) }) }, ...denials },
  },
  rotate: {
    summary: 'Make new signing keys (the service’s under an asymmetric JWT_ALGORITHM, the OpenID Provider’s always), used at once by every instance; older keys verify until their tokens are past',
    tags: ['Settings'],
    auth: true,
    responses: {
      200: {
        description: 'the new keys',
        schema: z.object({
          key: signingKey.nullable().describe('the service’s new key; null under HS256, whose tokens are signed with JWT_SECRET'),
          providerKeys: z.array(signingKey).describe('the OpenID Provider’s signing keys now (RS256 for ID tokens, ES256 for access tokens)'),
          message: z.string(),
        }),
      },
      ...denials,
    },
  },
  jwks: {
    summary: 'The public keys that verify this service’s tokens (JWK Set; empty under HS256)',
    tags: ['Discovery'],
    responses: { 200: { description: 'JWK Set, Cache-Control: public, max-age=300', schema: z.object({ keys: z.array(jwk) }) } },
  },
} satisfies Record<string, Endpoint>;
