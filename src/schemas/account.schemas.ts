import { z } from 'zod';
import type { Endpoint } from '../http/api-router';
import { email, newPassword, signInPassword } from './input-rules';
import { EMAIL_LINK_TOKEN_MAX } from '../services/accounts/email-links';

// Not strict: a mail client or tracker may add its own query parameters to a link.
export const emailLinkQuery = z.object({
  token: z.string({ message: 'is required' }).min(1, { message: 'is required' }).max(EMAIL_LINK_TOKEN_MAX, { message: `must be at most ${EMAIL_LINK_TOKEN_MAX} characters` }),
});
/** `currentPassword` is needed when the account has a password (the service says so by name when it is missing). */
export const emailChangeBody = z.strictObject({ newEmail: email, currentPassword: signInPassword.optional() });
export type EmailChangeBody = z.output<typeof emailChangeBody>;
export const passwordChangeBody = z.strictObject({ currentPassword: signInPassword, newPassword });
export type PasswordChangeBody = z.output<typeof passwordChangeBody>;

const message = z.object({ message: z.string() });
const stepUp = { 403: '"Recent sign-in required" with stepUp: true (the sign-in is older than 10 minutes)' };
const linkAnswer = 'to /auth/login with a notice: done, or one message for a link that is unknown, tampered, used or expired';
const tags = ['Account'];

const exportBody = z.object({
  exportedAt: z.string().describe('ISO 8601'),
  account: z.object({
    id: z.string(),
    email: z.string(),
    emailVerified: z.boolean(),
    username: z.string(),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    role: z.string(),
    active: z.boolean(),
    hasPassword: z.boolean(),
    createdAt: z.string(),
    lastLoginAt: z.string().nullable(),
  }),
  profile: z.record(z.string(), z.unknown()).nullable(),
  linkedAccounts: z.array(z.object({ provider: z.string(), providerAccountId: z.string(), email: z.string().nullable(), linkedAt: z.string() })),
  sessions: z.array(z.record(z.string(), z.unknown())),
  passkeys: z.array(z.record(z.string(), z.unknown())),
  activity: z.array(z.object({ action: z.string(), createdAt: z.string(), ip: z.string().nullable(), userAgent: z.string().nullable(), details: z.record(z.string(), z.unknown()).nullable() })),
  activityTruncated: z.boolean().describe('true when more than the newest 5000 activity rows exist'),
});

/** CONTRACT 12: verified addresses, change of address, deletion and export of one's own account. */
export const ACCOUNT_ENDPOINTS = {
  verifyEmail: {
    summary: 'Confirm an email address with the emailed link (24 hours, single use)',
    tags,
    query: emailLinkQuery,
    responses: { 302: `${linkAnswer} (notice=email_verified or email_link_invalid)` },
  },
  resendVerification: {
    summary: 'Mail a new verification link to the signed-in user (nothing when already verified; at most one a minute)',
    tags,
    auth: true,
    responses: { 200: { description: 'the same answer whether or not a mail went out', schema: message }, 429: 'rate limited' },
  },
  changeEmail: {
    summary: 'Ask to move the account to a new address: a confirmation link goes to it',
    description:
      'The same 200 whether or not the address is taken (a taken address gets no mail). currentPassword is required when the account has a password. ' +
      'Nothing changes until the link is used; then every other session ends and the old address gets a notice.',
    tags,
    auth: true,
    body: emailChangeBody,
    responses: {
      200: { description: 'requested', schema: message },
      400: 'validation failed (newEmail, currentPassword)',
      429: 'rate limited, or the account is blocked after wrong passwords',
      ...stepUp,
    },
  },
  changePassword: {
    summary: 'Change your password: a new token for this session, every other session ends',
    description:
      'currentPassword goes through the same throttled check as a sign-in (429 while the account is blocked). The owner is mailed a notice ' +
      'listing the API keys, passkeys and linked accounts still on the account (CONTRACT 18).',
    tags,
    auth: true,
    body: passwordChangeBody,
    responses: {
      200: { description: 'changed; a new token for the same session (cookies renewed when signed in by cookie)', schema: z.object({ token: z.string() }) },
      400: 'validation failed (currentPassword wrong, newPassword too weak or too short)',
      409: 'the password was changed meanwhile by another request',
      429: 'rate limited, or the account is blocked after wrong passwords',
      ...stepUp,
    },
  },
  confirmEmail: {
    summary: 'Confirm a change of address with the link mailed to the new address',
    tags,
    query: emailLinkQuery,
    responses: { 302: `${linkAnswer} (notice=email_changed or email_link_invalid)` },
  },
  deleteAccount: {
    summary: 'Delete your own account (content stays, without an author)',
    tags,
    auth: true,
    responses: { 204: 'deleted; cookies cleared', 409: 'you are the last active admin', ...stepUp },
  },
  exportAccount: {
    summary: 'Your data as JSON: profile, linked accounts, sessions, passkeys, activity (no hashes or secrets)',
    tags,
    auth: true,
    responses: { 200: { description: 'the export (Content-Disposition: attachment)', schema: exportBody } },
  },
} satisfies Record<string, Endpoint>;
