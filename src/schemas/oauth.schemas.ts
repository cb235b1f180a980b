import { z } from 'zod';
import type { Endpoint } from '../http/api-router';
import { redirectField } from './input-rules';
import { OAUTH_PROVIDERS } from '../models/oauth-provider-names';
import { OAUTH_MESSAGES } from '../oauth/oauth-providers';
import { OAUTH_SERVICE_MESSAGES } from '../services/sign-in-methods/oauth.service';

// The name is checked against the known providers by the service (404 "Unknown OAuth provider"), as on the GET routes.
const provider = z.string({ message: 'is required' }).min(1, { message: 'is required' }).max(32);
const providerParams = z.object({ provider: provider.describe(`one of: ${OAUTH_PROVIDERS.join(', ')}`) });
const startQuery = z.object({ redirect: redirectField.describe('same-origin path to land on after signing in (default /admin)') });
export const providerBody = z.strictObject({ provider });
export type ProviderBody = z.output<typeof providerBody>;

const account = z.object({ provider: z.string(), providerAccountId: z.string(), email: z.string().nullable(), linkedAt: z.string().describe('ISO 8601') });
const tags = ['OAuth'];
const unknownOrDisabled = { 400: `"${OAUTH_MESSAGES.disabled('<name>')}"`, 404: `"${OAUTH_MESSAGES.unknown}"` };

/** The OpenAPI description (and, through params/body, the validation) of each /auth/oauth endpoint. */
export const OAUTH_ENDPOINTS = {
  accounts: {
    summary: "The signed-in user's linked OAuth accounts",
    tags,
    auth: true,
    responses: { 200: { description: 'linked accounts, oldest first', schema: z.object({ accounts: z.array(account) }) }, 401: 'not signed in' },
  },
  start: {
    summary: 'Start signing in with a provider',
    description:
      'Redirects to the provider with redirect_uri BASE_URL/auth/oauth/<provider>/callback, a 256-bit state bound to this browser ' +
      '(HttpOnly SameSite=Lax cookie oauth_binding, 10 minutes, plus a single-use record in the shared store) and a PKCE S256 challenge. ' +
      'Scopes: GitHub read:user user:email; Google openid email profile. Rate limited with the callback: 30 per minute per IP.',
    tags,
    params: providerParams,
    query: startQuery,
    responses: { 302: 'to the provider authorization page', ...unknownOrDisabled, 429: 'too many requests' },
  },
  callback: {
    summary: 'The provider sends the browser back here',
    description:
      'Query: code and state, or error. The state is consumed once and must come from this browser; the code is exchanged with the ' +
      'PKCE verifier. Outcome rules: an existing link signs its user in; else a provider-verified email of an account links it and ' +
      'signs in; else a new viewer (the first user ever: admin) while registration is allowed. A linking flow ends at /admin/profile/security ' +
      'with no new session and no cookies (the browser that started it is already signed in), and mails the owner a notice. ' +
      'Every failure (state, provider error, token, no or unverified email, deactivated user, registration off) is a 302 with ?notice=<code> (src/http/notices.ts) and no cookies.',
    tags,
    params: providerParams,
    responses: {
      302: 'success: auth_token + csrf_token cookies (SameSite=Lax) and /admin, or the state\'s redirect; a link: /admin/profile/security with its notice and no cookies; failure: /auth/login with its notice (or /admin/profile/security when linking)',
      404: `"${OAUTH_MESSAGES.unknown}"`,
      429: 'too many requests',
    },
  },
  link: {
    summary: 'Link a provider account to the signed-in user',
    description:
      'Answers the authorization URL whose state is bound to the signed-in user and to this browser (a per-flow binding cookie is set on ' +
      'this answer). A form post (the profile page) is redirected there instead. Step-up: the sign-in must be at most 10 minutes old ' +
      '(auth_time), else 403 with stepUp: true (a page is sent to sign in again).',
    tags,
    auth: true,
    form: true,
    body: providerBody,
    responses: {
      200: { description: 'where to send the browser', schema: z.object({ redirectUrl: z.string() }) },
      302: 'form post: to the provider (refusals: /admin/profile/security?notice=<code>)',
      ...unknownOrDisabled,
      401: 'not signed in',
      403: '"Recent sign-in required", with stepUp: true',
    },
  },
  unlink: {
    summary: "Remove the link to a provider from the signed-in user's account",
    tags,
    auth: true,
    form: true,
    body: providerBody,
    responses: {
      200: { description: 'unlinked', schema: z.object({ success: z.literal(true) }) },
      302: 'form post: /admin/profile/security?notice=<code>',
      400: `"${OAUTH_SERVICE_MESSAGES.lastMethod}" (no password and this is the only link), or validation failed`,
      401: 'not signed in',
      404: 'not linked, or unknown provider',
    },
  },
} satisfies Record<string, Endpoint>;
