import { z } from 'zod';
import type { Endpoint } from '../http/api-router';
import { email, redirectField } from './input-rules';
import { OTP_MESSAGES } from '../services/sign-in-methods/otp.service';
import { signInResponse } from './auth.schemas';

const requestBody = z.strictObject({ email, redirect: redirectField });
// The configured length (4–8) is checked by the service, which knows the setting.
const verifyBody = z.strictObject({
  email,
  code: z.string({ message: 'must be a string of digits' }).regex(/^\d{4,8}$/, { message: 'must be 4 to 8 digits' }),
  redirect: redirectField,
});
const requestedView = z.object({ message: z.string(), expiresIn: z.number().int() });
const failedView = z.object({ error: z.string(), attemptsRemaining: z.number().int() });
const tags = ['OTP sign-in'];
const disabled = `404 "${OTP_MESSAGES.disabled}" while the otp-login plugin is inactive`;

export type OtpRequestBody = z.output<typeof requestBody>;

/** The OpenAPI description (and, through its schemas, the validation) of each /auth/otp endpoint. */
export const OTP_ENDPOINTS = {
  request: {
    summary: 'Email a one-time sign-in code',
    description:
      'The same answer for unknown, deactivated and active accounts; only an active account (or, while the plugin allows new ' +
      'users and registration is allowed, an unknown email) gets the mail. A new code voids older ones. Limited to ' +
      'rateLimitPerHour codes per email per hour.',
    tags,
    body: requestBody,
    form: true,
    responses: {
      200: { description: 'the same answer for every email', schema: requestedView },
      400: 'validation failed',
      404: disabled,
      429: 'too many codes for this email this hour, or too many requests from this client (10 per minute)',
      503: 'no mail service is configured',
    },
  },
  verify: {
    summary: 'Sign in with an emailed one-time code',
    description:
      'Every check counts against maxAttempts, atomically; a spent or used code is dead. Success sets auth_token and csrf_token. ' +
      'An unknown email becomes a viewer only while allowNewUserRegistration is on and registration is allowed.',
    tags,
    body: verifyBody,
    form: true,
    responses: {
      200: { description: 'Login response (user with custom fields), or the two-factor challenge', schema: signInResponse },
      302: 'form post: to /admin or the redirect field',
      400: 'validation failed (the code must have the configured length)',
      401: { description: OTP_MESSAGES.invalid, schema: failedView },
      404: disabled,
    },
  },
} satisfies Record<string, Endpoint>;
