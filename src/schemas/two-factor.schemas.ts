import { z } from 'zod';
import type { Endpoint } from '../http/api-router';
import { redirectField, signInPassword } from './input-rules';
import { RECOVERY_CODES } from '../credentials/totp';
import { loginResponse } from './auth.schemas';
import { userParams } from './sessions.schemas';
import { authenticationResponse, requestOptions } from './passkeys.schemas';

/** A TOTP code as typed: six digits (spaces a phone app shows between the groups are the client's to strip). */
const totpCode = z.string({ message: 'must be a string of 6 digits' }).trim().regex(/^\d{6}$/, { message: 'must be 6 digits' });
const recoveryCode = z.string({ message: 'must be a string' }).trim().min(1, { message: 'is required' }).max(64, { message: 'must be at most 64 characters' });
const challenge = z.string({ message: 'must be a string' }).min(1, { message: 'is required' }).max(128, { message: 'must be at most 128 characters' });

export const confirmBody = z.strictObject({ code: totpCode });
/**
 * The answer to a sign-in challenge: one kind's field. `challenge` may be left out by the /auth/2fa form,
 * whose HttpOnly cookie carries it. A kind registered later (passkeys) adds its own field here.
 */
export const verifyBody = z
  .strictObject({ challenge: challenge.optional(), code: totpCode.optional(), recoveryCode: recoveryCode.optional(), passkey: authenticationResponse.optional(), redirect: redirectField })
  .refine((body) => body.code !== undefined || body.recoveryCode !== undefined || body.passkey !== undefined, { message: 'give a code, a recovery code or a passkey', path: ['code'] });
/** A step-up proof: the password (a user without a second factor), or one answer of a second factor (a passkey's for POST /auth/step-up/passkey/options). */
export const stepUpBody = z
  .strictObject({ password: signInPassword.optional(), code: totpCode.optional(), recoveryCode: recoveryCode.optional(), passkey: authenticationResponse.optional(), redirect: redirectField })
  .refine((body) => body.password !== undefined || body.code !== undefined || body.recoveryCode !== undefined || body.passkey !== undefined, {
    message: 'give your password, a code, a recovery code or a passkey',
    path: ['password'],
  });

export type StepUpBody = z.output<typeof stepUpBody>;

const setupView = z.object({ secret: z.string().describe('base32, 20 bytes'), otpauthUrl: z.string() });
const codesView = z.object({ recoveryCodes: z.array(z.string()).length(RECOVERY_CODES.count).describe('shown this once; each works once') });
const success = z.object({ success: z.literal(true) });
const tokenView = z.object({ token: z.string() });

const stepUp = { 403: '"Recent sign-in required" with stepUp: true (prove it again at POST /auth/step-up); "Two-factor enrolment required" does not apply here' };
const tags = ['Two-factor'];

/** The OpenAPI description (and, through body, the validation) of each /auth/2fa and step-up endpoint. */
export const TWO_FACTOR_ENDPOINTS = {
  setup: {
    summary: 'Start TOTP enrolment: a new secret and its otpauth URL (step-up)',
    tags,
    auth: true,
    responses: { 200: { description: 'the secret, not yet active', schema: setupView }, ...stepUp, 409: 'Two-factor authentication is already on' },
  },
  confirm: {
    summary: 'Confirm enrolment with a code from the app; answers the recovery codes, shown this once',
    tags,
    auth: true,
    body: confirmBody,
    responses: { 200: { description: 'two-factor is on', schema: codesView }, 400: 'Invalid code, or no setup started', 409: 'already on' },
  },
  recoveryCodes: {
    summary: 'A new set of recovery codes; the old set stops working (step-up)',
    tags,
    auth: true,
    responses: { 200: { description: 'the new codes', schema: codesView }, 400: 'Two-factor authentication is not on', ...stepUp },
  },
  disable: {
    summary: 'Turn two-factor off: TOTP and recovery codes removed (step-up)',
    tags,
    auth: true,
    responses: { 200: { description: 'off', schema: success }, 400: 'Two-factor authentication is not on', ...stepUp },
  },
  verify: {
    summary: 'The second step of a sign-in: a code, a recovery code or a passkey (assertion for POST /auth/2fa/passkey/options) for the challenge',
    description: 'Ends in the normal sign-in answer. A wrong code and an unknown, used or expired challenge answer the same 401; the fifth wrong code ends the challenge; wrong codes count in the per-account throttle.',
    tags,
    body: verifyBody,
    form: true,
    responses: {
      200: { description: 'Login response; sets auth_token and csrf_token', schema: loginResponse },
      302: 'form post: to /admin or the redirect kept from the first step',
      401: 'Invalid code',
      429: 'the account is blocked for a while (too many wrong passwords or codes)',
    },
  },
  stepUp: {
    summary: 'Prove it is you again (with a second factor on: a TOTP code, a recovery code or a passkey; else the password): a new token of the same session with a new auth_time',
    tags,
    auth: true,
    body: stepUpBody,
    form: true,
    responses: {
      200: { description: 'the renewed token; cookies renewed', schema: tokenView },
      302: 'form post: back to the redirect field',
      400: 'validation failed, the proof is not right (named in errors), or a password alone from a user with a second factor (a code, recovery code or passkey is needed)',
      429: 'the account is blocked for a while',
    },
  },
  stepUpPasskeyOptions: {
    summary: "Request options for stepping up with one of your passkeys (user verification required)",
    description: 'Send the assertion to POST /auth/step-up as `{ passkey }`.',
    tags,
    auth: true,
    responses: { 200: { description: 'request options (as for a sign-in\'s second step)', schema: requestOptions }, 400: 'You have no passkey to confirm with' },
  },
  adminReset: {
    summary: "Remove a user's second factor (TOTP and recovery codes) and end their sessions",
    tags: ['Users'],
    auth: true,
    params: userParams,
    responses: { 200: { description: 'reset; the user is mailed a notice', schema: success }, 403: 'Insufficient permissions', 404: 'User not found' },
  },
} satisfies Record<string, Endpoint>;
