import { z } from 'zod';
import type { Endpoint } from '../http/api-router';
import { email, newPassword } from './input-rules';

const requestBody = z.strictObject({ email });
const resetBody = z.strictObject({ token: z.string().min(1, { message: 'is required' }).max(512), password: newPassword });
const messageView = z.object({ message: z.string() });
const tags = ['Password reset'];

export type ResetRequestBody = z.output<typeof requestBody>;
export type ResetBody = z.output<typeof resetBody>;

/** The OpenAPI description (and, through its schemas, the validation) of the password-reset endpoints. */
export const PASSWORD_RESET_ENDPOINTS = {
  request: {
    summary: 'Email a password reset link',
    description: 'Always answers the same, whether or not the account exists. Rate limited: 3 per 15 minutes per client IP.',
    tags,
    body: requestBody,
    form: true,
    responses: {
      200: { description: 'the same answer for every email', schema: messageView },
      303: 'form post: to /auth/forgot-password with the same message',
      400: 'validation failed',
      429: 'rate limited',
    },
  },
  reset: {
    summary: 'Set a new password with a reset token',
    description: 'The token is single-use and valid for one hour. Every existing session token of the user stops working.',
    tags,
    body: resetBody,
    form: true,
    responses: { 200: { description: 'password changed', schema: messageView }, 400: 'invalid or expired token, or validation failed' },
  },
} satisfies Record<string, Endpoint>;
