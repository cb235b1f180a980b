import { z } from 'zod';
import type { Endpoint } from '../http/api-router';
import { email, redirectField } from './input-rules';
import { MAGIC_LINK_MESSAGES } from '../services/sign-in-methods/magic-link.service';

/** `callbackURL`: a same-origin relative path; anything else is dropped (the link then leads to /admin). */
export const magicLinkRequestBody = z.strictObject({ email, callbackURL: redirectField });
// Not strict: a mail client or tracker may add its own query parameters to a link.
export const magicLinkVerifyQuery = z.object({
  token: z.string({ message: 'is required' }).min(1, { message: 'is required' }).max(512),
  callbackURL: redirectField,
});

export type MagicLinkRequestBody = z.output<typeof magicLinkRequestBody>;

const tags = ['Magic link sign-in'];
const notConfigured = `503 "${MAGIC_LINK_MESSAGES.notConfigured}" while EXTERNAL_AUTH_SECRET or a mail service is missing`;

/** The OpenAPI description (and, through body/query, the validation) of the magic-link endpoints. */
export const MAGIC_LINK_ENDPOINTS = {
  request: {
    summary: 'Email a sign-in link',
    description:
      'The same answer (status, body, headers) for unknown, deactivated and active accounts. An active account gets a link, ' +
      'valid 15 minutes and usable once; an unknown email only while registration is allowed (the account is created when ' +
      'the link is used); a deactivated one never. Limited per client IP (5 a minute) and per email (3 per 15 minutes).',
    tags,
    body: magicLinkRequestBody,
    form: true,
    responses: {
      200: { description: 'the same answer for every valid email', schema: z.object({ status: z.literal(true) }) },
      400: 'validation failed (not a valid email)',
      429: 'rate limited (per IP or per email)',
      503: notConfigured,
    },
  },
  verify: {
    summary: 'Sign in with an emailed link',
    description:
      'Uses the link once (of parallel clicks exactly one signs in). Success: 302 to the same-origin callbackURL (default ' +
      '/admin) with auth_token, csrf_token and a server session (auth_session, HttpOnly, SameSite=Lax). A bad, used, expired ' +
      'or revoked link (logout-all, password reset, deactivation): 302 to /auth/login?notice=magic_link_invalid.',
    tags,
    query: magicLinkVerifyQuery,
    responses: {
      302: 'to callbackURL (or /admin) signed in, or to /auth/login?notice=magic_link_invalid',
      503: 'the session store is unavailable (the link stays usable)',
    },
  },
} satisfies Record<string, Endpoint>;
