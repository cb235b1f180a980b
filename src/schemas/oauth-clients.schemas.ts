import { z } from 'zod';
import type { Endpoint } from '../http/api-router';
import { OIDC_GRANT_TYPES, OIDC_SCOPES, redirectUriProblem } from '../services/oidc-provider/oauth-clients.service';

/** An application's id as the service makes them (base64url); anything else is a malformed id, never a lookup. */
const clientId = z.string().min(1).max(64, { message: 'must be at most 64 characters' }).regex(/^[A-Za-z0-9_-]+$/, { message: 'must be an application id' });
export const oauthClientParams = z.strictObject({ id: clientId });
export const connectedAppParams = z.strictObject({ clientId });

/** A URI an application may be sent back to, held to CONTRACT 14's rule (the service's redirectUriProblem). */
const redirectUri = z
  .string()
  .min(1)
  .max(2000)
  .superRefine((uri, ctx) => {
    const problem = redirectUriProblem(uri);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .describe('absolute, no fragment, no wildcard; https, http on a loopback host (RFC 8252), or a private-use scheme (com.example.app:/cb); matched as an exact string');
const uriList = z.array(redirectUri).max(20);
/** Each listed value once: a repeated scope or grant type is a mistake the caller should hear about. */
const distinct = <T extends z.ZodType<string>>(item: T) =>
  z
    .array(item)
    .refine((values) => new Set(values).size === values.length, { message: 'must not repeat a value' });

const clientFields = {
  name: z.string().trim().min(1).max(255).describe('shown to users on the consent page and in their connected applications'),
  redirectUris: uriList.min(1),
  postLogoutRedirectUris: uriList.optional().describe('where end_session may send the browser back to; same rule as redirectUris'),
  firstParty: z.boolean().optional().describe('trusted: its users are never asked for consent; default false'),
  allowedScopes: distinct(z.enum(OIDC_SCOPES)).min(1).optional().describe('default all of openid, profile, email, offline_access'),
  grantTypes: distinct(z.enum(OIDC_GRANT_TYPES)).min(1).optional().describe('default authorization_code and refresh_token; client_credentials only for a confidential client'),
};

/** A new application: the JSON body of POST /api/oauth-clients and the settings page's form alike. */
export const oauthClientCreate = z.strictObject({
  ...clientFields,
  public: z.boolean().optional().describe('a native or single-page application without a secret (PKCE alone); default false; fixed once made'),
});

/** A change: any of the fields but `public`, which decides whether a secret exists and so cannot change. */
export const oauthClientUpdate = z
  .strictObject({ ...clientFields, name: clientFields.name.optional(), redirectUris: uriList.min(1).optional() })
  .refine((body) => Object.values(body).some((value) => value !== undefined), { message: 'name at least one field to change' });

const client = z.object({
  clientId: z.string(),
  name: z.string(),
  redirectUris: z.array(z.string()),
  postLogoutRedirectUris: z.array(z.string()),
  public: z.boolean(),
  firstParty: z.boolean(),
  allowedScopes: z.array(z.enum(OIDC_SCOPES)),
  grantTypes: z.array(z.enum(OIDC_GRANT_TYPES)),
  createdAt: z.string().describe('ISO 8601'),
  updatedAt: z.string().describe('ISO 8601'),
});
const clientSecret = z.string().describe('the secret itself (cs_…): shown this once, stored hashed, never shown again');
const connectedApp = z.object({
  clientId: z.string(),
  name: z.string(),
  scopes: z.array(z.string()).describe('what the user allowed it'),
  grantedAt: z.string().describe('ISO 8601: the latest consent'),
});

const tags = ['OpenID Provider'];
const stepUp = { 403: '"Insufficient permissions", "Recent sign-in required" with stepUp: true, "Not allowed with an API key", or a refused CSRF token' };
const denials = { 401: 'not signed in', 403: 'Insufficient permissions' };
const notFound = { 404: 'Application not found' };

/** CONTRACT 14: the applications that sign users in through this service, and a user's view of those they allowed. */
export const OAUTH_CLIENT_ENDPOINTS = {
  create: {
    summary: 'Register an application (a confidential one gets its secret, shown this once)',
    tags,
    auth: true,
    body: oauthClientCreate,
    responses: { 201: { description: 'the application, and its secret unless public', schema: z.object({ client, clientSecret: clientSecret.optional() }) }, ...stepUp },
  },
  list: {
    summary: 'The registered applications, oldest first (never a secret)',
    tags,
    auth: true,
    responses: { 200: { description: 'the applications', schema: z.object({ clients: z.array(client) }) }, ...denials },
  },
  get: {
    summary: 'One registered application (never its secret)',
    tags,
    auth: true,
    params: oauthClientParams,
    responses: { 200: { description: 'the application', schema: z.object({ client }) }, ...denials, ...notFound },
  },
  update: {
    summary: 'Change an application; what is not sent is kept',
    tags,
    auth: true,
    params: oauthClientParams,
    body: oauthClientUpdate,
    responses: { 200: { description: 'the application as it is now', schema: z.object({ client }) }, ...stepUp, ...notFound },
  },
  remove: {
    summary: 'Remove an application: every grant, consent and token it holds ends at once',
    tags,
    auth: true,
    params: oauthClientParams,
    responses: { 204: 'removed', ...stepUp, ...notFound },
  },
  rotateSecret: {
    summary: 'A new secret for a confidential application, shown this once; the old one stops at once',
    tags,
    auth: true,
    params: oauthClientParams,
    responses: {
      200: { description: 'the application and its new secret', schema: z.object({ client, clientSecret }) },
      400: 'A public client has no secret',
      ...stepUp,
      ...notFound,
    },
  },
  connectedApps: {
    summary: 'The applications you let sign you in, with what you allowed each',
    tags,
    auth: true,
    responses: { 200: { description: 'your connected applications, latest consent first', schema: z.object({ apps: z.array(connectedApp) }) } },
  },
  disconnectApp: {
    summary: 'Take back what you allowed an application: its tokens end and it must ask again',
    tags,
    auth: true,
    params: connectedAppParams,
    responses: { 204: 'revoked', 404: 'you have not connected that application' },
  },
} satisfies Record<string, Endpoint>;
