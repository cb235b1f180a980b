import { z } from 'zod';
import type { Endpoint } from '../http/api-router';
import { ROLES } from '../models';
import { MAX_REFRESH_GRACE_SECONDS as MAX_GRACE_SECONDS, MAX_TOKEN_LIFETIME_SECONDS as MAX_LIFETIME_SECONDS, parseDurationSeconds } from '../config/duration';

const MIN_LIFETIME_SECONDS = 60;
/** A session lasts at least an hour and at most two years from its sign-in (CONTRACT 8 absolute lifetime). */
const MIN_SESSION_MAX_AGE_SECONDS = 3600;
const MAX_SESSION_MAX_AGE_SECONDS = 2 * 365 * 86_400;
const DURATION_HINT = 'must be a duration such as 30d, 12h, 3600s or a number of seconds';

const lifetime = z
  .string({ message: DURATION_HINT })
  .trim()
  .max(20, { message: DURATION_HINT })
  .refine(
    (value) => {
      const seconds = parseDurationSeconds(value);
      return seconds !== null && seconds >= MIN_LIFETIME_SECONDS && seconds <= MAX_LIFETIME_SECONDS;
    },
    { message: `${DURATION_HINT}, from ${MIN_LIFETIME_SECONDS}s to 365d` },
  );
/** The one rule for a security settings change: the JSON API's body and the admin page's form. */
export const securitySettingsUpdate = z
  .strictObject({
    jwtExpiresIn: lifetime.optional(),
    jwtRefreshGraceSeconds: z
      .int({ message: 'must be a whole number of seconds' })
      .min(0, { message: 'must be at least 0' })
      .max(MAX_GRACE_SECONDS, { message: `must be at most ${MAX_GRACE_SECONDS}` })
      .optional(),
    allowRegistration: z.boolean({ message: 'must be true or false' }).optional(),
    sessionMaxAgeSeconds: z
      .int({ message: 'must be a whole number of seconds' })
      .min(MIN_SESSION_MAX_AGE_SECONDS, { message: `must be at least ${MIN_SESSION_MAX_AGE_SECONDS}` })
      .max(MAX_SESSION_MAX_AGE_SECONDS, { message: `must be at most ${MAX_SESSION_MAX_AGE_SECONDS}` })
      .optional(),
    // CONTRACT 9: users of these roles must enrol a second factor; [] holds nobody to it.
    requireTwoFactorRoles: z.array(z.enum(ROLES, { message: `must list roles among ${ROLES.join(', ')}` }), { message: 'must be a list of roles' }).max(ROLES.length).optional(),
    // CONTRACT 12: refuse password sign-ins of accounts whose address is unproven.
    requireVerifiedEmail: z.boolean({ message: 'must be true or false' }).optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), { message: 'name at least one setting' });

const source = z.enum(['env', 'admin', 'default']);
const securitySettings = z.object({
  jwtExpiresIn: z.object({ value: z.string(), seconds: z.number().int(), source }),
  jwtRefreshGraceSeconds: z.object({ value: z.number().int(), seconds: z.number().int(), source }),
  allowRegistration: z.object({ value: z.boolean(), source }),
  sessionMaxAgeSeconds: z.object({ value: z.number().int(), seconds: z.number().int(), source }),
  requireTwoFactorRoles: z.object({ value: z.array(z.enum(ROLES)), source }),
  requireVerifiedEmail: z.object({ value: z.boolean(), source }),
});

const denials = { 401: 'not signed in', 403: 'Insufficient permissions' };
const tags = ['Settings'];

/** The OpenAPI description (and, through its schemas, the validation) of each /api/settings endpoint. */
export const SETTINGS_ENDPOINTS = {
  getSecurity: {
    summary: 'Token lifetime, refresh grace, registration switch and session lifetime, each with its source',
    tags,
    auth: true,
    responses: { 200: { description: 'the resolved settings', schema: securitySettings }, ...denials },
  },
  updateSecurity: {
    summary: 'Store admin values (a value under an environment variable stays inactive)',
    tags,
    auth: true,
    body: securitySettingsUpdate,
    responses: { 200: { description: 'the resolved settings', schema: securitySettings }, 400: 'validation failed', ...denials },
  },
} satisfies Record<string, Endpoint>;
