import { z } from 'zod';
import type { Endpoint } from '../http/api-router';
import { idParams } from '../http/paging';
import { email } from './input-rules';
import { ROLES } from '../models';
import { SSO_PROTOCOLS } from '../models/sso';

/** `sso:<slug>` names the provider in oauth_accounts.provider (32 characters): 28 for the slug. */
export const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,26}[a-z0-9])?$/;
const slug = z.string({ message: 'is required' }).regex(SLUG_PATTERN, { message: 'must be 1–28 lowercase letters, digits or dashes (not at either end)' });
const name = z.string({ message: 'is required' }).trim().min(1, { message: 'is required' }).max(100, { message: 'must be at most 100 characters' });
const DOMAIN_PATTERN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const domains = z
  .array(z.string().trim().toLowerCase().regex(DOMAIN_PATTERN, { message: 'must be a domain name such as example.com' }), { message: 'must be a list of domains' })
  .min(1, { message: 'name at least one domain' })
  .max(50, { message: 'must name at most 50 domains' })
  .transform((list) => [...new Set(list)]);
const role = z.enum(ROLES, { message: `must be one of: ${ROLES.join(', ')}` });
const httpsUrl = z.string().trim().max(2048, { message: 'must be at most 2048 characters' }).url({ message: 'must be a URL' });
const scopes = z
  .array(z.string().regex(/^[\x21\x23-\x5b\x5d-\x7e]{1,64}$/, { message: 'must be scope names' }))
  .max(20)
  .refine((list) => list.includes('openid'), { message: 'must include openid' });

const oidcSettings = z.strictObject({
  issuer: httpsUrl,
  clientId: z.string().trim().min(1, { message: 'is required' }).max(255),
  clientSecret: z.string().min(1, { message: 'is required' }).max(1024),
  scopes: scopes.optional(),
});
/** On PATCH the secret may be left out: the stored one stays. */
const oidcChanges = oidcSettings.extend({ clientSecret: oidcSettings.shape.clientSecret.optional() });
const samlSettings = z.union([
  z.strictObject({ metadataXml: z.string().min(1, { message: 'is required' }).max(200_000, { message: 'must be at most 200000 characters' }) }),
  z.strictObject({
    entryPoint: httpsUrl,
    idpEntityId: z.string().trim().min(1, { message: 'is required' }).max(1024),
    certificate: z.string().trim().min(1, { message: 'is required' }).max(20_000),
  }),
], { message: 'must be { metadataXml } or { entryPoint, idpEntityId, certificate }' });

const common = {
  name,
  domains,
  enforce: z.boolean({ message: 'must be true or false' }).optional(),
  autoCreate: z.boolean({ message: 'must be true or false' }).optional(),
  defaultRole: role.optional(),
};

const createBody = z
  .strictObject({ slug, protocol: z.enum(SSO_PROTOCOLS, { error: (issue) => (issue.input === undefined ? 'is required' : 'must be oidc or saml') }), ...common, oidc: oidcSettings.optional(), saml: samlSettings.optional() })
  .superRefine((body, ctx) => {
    if (body.protocol === 'oidc' && !body.oidc) ctx.addIssue({ code: 'custom', path: ['oidc'], message: 'is required for protocol oidc' });
    if (body.protocol === 'saml' && !body.saml) ctx.addIssue({ code: 'custom', path: ['saml'], message: 'is required for protocol saml' });
    if (body.protocol === 'oidc' && body.saml) ctx.addIssue({ code: 'custom', path: ['saml'], message: 'is for protocol saml only' });
    if (body.protocol === 'saml' && body.oidc) ctx.addIssue({ code: 'custom', path: ['oidc'], message: 'is for protocol oidc only' });
  });
const updateBody = z
  .strictObject({ name: name.optional(), domains: domains.optional(), enforce: common.enforce, autoCreate: common.autoCreate, defaultRole: common.defaultRole, oidc: oidcChanges.optional(), saml: samlSettings.optional() })
  .refine((body) => Object.values(body).some((value) => value !== undefined), { message: 'name at least one field to change' });

export type SsoProviderInput = z.infer<typeof createBody>;
export type SsoProviderChanges = z.infer<typeof updateBody>;
export type SamlInput = z.infer<typeof samlSettings>;

const provider = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  protocol: z.enum(SSO_PROTOCOLS),
  domains: z.array(z.string()),
  enforce: z.boolean(),
  autoCreate: z.boolean(),
  defaultRole: role,
  oidc: z
    .object({ issuer: z.string(), clientId: z.string(), scopes: z.array(z.string()), clientSecretSet: z.boolean().describe('the secret itself is never shown'), redirectUri: z.string() })
    .nullable(),
  saml: z
    .object({
      entryPoint: z.string(),
      idpEntityId: z.string(),
      certificateFingerprint: z.string().describe('SHA-256 of the IdP certificate (the certificate itself is not shown)'),
      entityId: z.string(),
      acs: z.string(),
      metadataUrl: z.string(),
    })
    .nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

const denials = { 401: 'not signed in', 403: 'Insufficient permissions, or Recent sign-in required' };

/** CONTRACT 15: the enterprise identity providers and the start of a sign-in through one. */
export const SSO_ENDPOINTS = {
  list: {
    summary: 'The single sign-on providers (no secrets)',
    tags: ['Settings'],
    auth: true,
    responses: { 200: { description: 'the providers', schema: z.object({ providers: z.array(provider) }) }, ...denials },
  },
  get: {
    summary: 'One single sign-on provider (no secrets)',
    tags: ['Settings'],
    auth: true,
    params: idParams,
    responses: { 200: { description: 'the provider', schema: z.object({ provider }) }, 404: 'no such provider', ...denials },
  },
  create: {
    summary: 'Add a single sign-on provider; an OIDC issuer is discovered and checked first',
    tags: ['Settings'],
    auth: true,
    body: createBody,
    responses: {
      201: { description: 'the provider', schema: z.object({ provider }) },
      400: 'the issuer could not be discovered or the SAML settings are unusable',
      409: 'the slug or a domain is taken',
      ...denials,
    },
  },
  update: {
    summary: 'Change a single sign-on provider (the slug and protocol stay)',
    tags: ['Settings'],
    auth: true,
    params: idParams,
    body: updateBody,
    responses: {
      200: { description: 'the provider', schema: z.object({ provider }) },
      400: 'the issuer could not be discovered or the SAML settings are unusable',
      404: 'no such provider',
      409: 'a domain is taken',
      ...denials,
    },
  },
  remove: {
    summary: 'Remove a single sign-on provider and the identities linked through it',
    tags: ['Settings'],
    auth: true,
    params: idParams,
    responses: { 204: 'removed', 404: 'no such provider', ...denials },
  },
  start: {
    summary: 'Start single sign-on with the provider that owns the address’s domain',
    tags: ['Authentication'],
    form: true,
    body: z.strictObject({ email, redirect: z.string().max(2048).optional() }),
    responses: {
      200: { description: 'where to send the browser', schema: z.object({ redirectUrl: z.string() }) },
      302: 'pages: to the provider',
      404: 'No single sign-on for this address',
    },
  },
  startSlug: {
    summary: 'Start single sign-on with one provider (302 to it)',
    tags: ['Authentication'],
    params: z.strictObject({ slug: z.string().max(64) }),
    query: z.object({ redirect: z.string().max(2048).optional() }),
    responses: { 302: 'to the provider', 404: 'no such provider' },
  },
  acs: {
    summary: 'SAML Assertion Consumer Service (HTTP-POST): signs in, or redirects to /auth/login?notice=…',
    tags: ['Authentication'],
    form: true,
    params: z.strictObject({ slug: z.string().max(64) }),
    body: z.object({ SAMLResponse: z.string().max(100_000), RelayState: z.string().max(1024).optional() }),
    responses: { 302: 'signed in (or the second step), or refused' },
  },
  callback: {
    summary: 'Where the OpenID Connect provider returns the browser; signs in or redirects to /auth/login?notice=…',
    tags: ['Authentication'],
    params: z.strictObject({ slug: z.string().max(64) }),
    query: z.object({}).catchall(z.unknown()),
    responses: { 302: 'signed in (or the second step), or refused' },
  },
} satisfies Record<string, Endpoint>;
