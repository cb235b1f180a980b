import { z } from 'zod';
import type { Endpoint } from '../http/api-router';
import { email, judgedPassword, newPassword, optionalInput, personName, redirectField, signInPassword, username } from './input-rules';
import { ROLES } from '../models';

export const loginBody = z.strictObject({ email, password: signInPassword, redirect: redirectField });
/** Known keys are checked here; the registrationFields pass through to the profile validator, anything else is ignored. */
export const registerBody = judgedPassword(
  z.looseObject({
    email,
    password: newPassword,
    username: optionalInput(username),
    firstName: optionalInput(personName),
    lastName: optionalInput(personName),
  }),
);
export const seedAdminBody = judgedPassword(z.strictObject({ email: email.optional(), password: newPassword.optional() }));

export type RegisterBody = z.infer<typeof registerBody>;
export type SeedAdminBody = z.infer<typeof seedAdminBody>;

const publicUser = z.object({
  id: z.string(),
  email: z.string(),
  username: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  role: z.enum(ROLES),
});
/** The user of a sign-in answer: public fields merged with custom profile fields. */
export const userWithCustomFields = publicUser.catchall(z.unknown());
/** The Login response of SPEC 2.2, shared by every sign-in method. */
export const loginResponse = z.object({ user: userWithCustomFields, token: z.string() });
/** CONTRACT 9: a first factor's answer when a second step is needed (no token, no auth cookie). */
export const twoFactorChallenge = z.object({
  twoFactorRequired: z.literal(true),
  challenge: z.string().describe('opaque; answer it at POST /auth/2fa/verify within 5 minutes'),
  methods: z.array(z.string()).describe('the kinds the user has: totp, recovery, passkey'),
});
/** A sign-in answer: the session, or the second step's challenge. */
export const signInResponse = z.union([loginResponse, twoFactorChallenge]);
const refreshResponse = z.object({ token: z.string(), expiresIn: z.number().int() });
const success = z.object({ success: z.literal(true) });
const seedAdminResponse = z.object({ message: z.string(), user: publicUser });

const tags = ['Auth'];

/** The OpenAPI description (and, through body, the validation) of each /auth session endpoint. */
export const AUTH_ENDPOINTS = {
  login: {
    summary: 'Sign in with email and password',
    tags,
    body: loginBody,
    form: true,
    responses: {
      200: { description: 'Login response (sets auth_token and csrf_token), or the two-factor challenge (no token, no cookie)', schema: signInResponse },
      302: 'form post: to /admin or the redirect field, or to /auth/2fa for the second step',
      400: 'validation failed',
      401: 'Invalid email or password',
      429: 'rate limited',
    },
  },
  register: {
    summary: 'Register (the first user becomes admin)',
    tags,
    body: registerBody,
    form: true,
    responses: {
      201: { description: 'Login response; sets the cookies', schema: loginResponse },
      400: 'validation failed',
      403: 'Registration is currently disabled',
      409: 'User with this email or username already exists',
      429: 'rate limited',
    },
  },
  me: {
    summary: 'The signed-in user with custom profile fields',
    tags,
    auth: true,
    apiKey: true,
    responses: {
      200: { description: 'user', schema: z.object({ user: userWithCustomFields.extend({ emailVerified: z.boolean().describe('the address was proven (CONTRACT 12)'), twoFactorEnabled: z.boolean().describe('TOTP is on (CONTRACT 9)') }) }) },
      401: 'Authentication required',
    },
  },
  refresh: {
    summary: 'A new token for a valid one, or one expired within the grace window',
    tags,
    auth: true,
    responses: {
      200: { description: 'Refresh response; sets the cookies', schema: refreshResponse },
      401: 'Invalid or expired token / User is not active',
      429: 'rate limited',
    },
  },
  logout: {
    summary: 'Sign out: this token stops working at once',
    tags,
    auth: 'optional',
    form: true,
    responses: { 200: { description: 'signed out; cookies cleared', schema: success }, 302: 'form post: to the sign-in page' },
  },
  logoutAll: {
    summary: 'Sign out everywhere: every token of the user ends',
    tags,
    auth: true,
    form: true,
    responses: { 200: { description: 'signed out everywhere', schema: success }, 401: 'Authentication required' },
  },
  seedAdmin: {
    summary: 'Create the first admin (only while no admin exists)',
    tags,
    body: seedAdminBody,
    responses: {
      201: { description: 'created', schema: seedAdminResponse },
      400: 'validation failed',
      409: 'An admin user already exists',
      429: 'rate limited',
    },
  },
} satisfies Record<string, Endpoint>;
