import { z } from 'zod';

/**
 * The input rules every edge uses (JSON routes, HTML forms, the admin API), so the same value is judged
 * the same everywhere. Services trust values that passed these.
 */

export const PASSWORD_LENGTH = { min: 8, max: 128 } as const;
export const USERNAME_LENGTH = { min: 3, max: 64 } as const;
export const NAME_MAX_LENGTH = 100;
export const EMAIL_MAX_LENGTH = 255;

/** An email address, trimmed and lower-cased (CONTRACT 4: everywhere it is looked up or stored). */
export const email = z
  .string({ message: 'must be a valid email address' })
  .trim()
  .toLowerCase()
  .max(EMAIL_MAX_LENGTH, { message: `must be at most ${EMAIL_MAX_LENGTH} characters` })
  .pipe(z.email({ message: 'must be a valid email address' }));

/** A password being set (registration, reset, admin create, seed): 8–128 characters. */
export const newPassword = z
  .string({ message: 'is required' })
  .min(PASSWORD_LENGTH.min, { message: `must be at least ${PASSWORD_LENGTH.min} characters` })
  .max(PASSWORD_LENGTH.max, { message: `must be at most ${PASSWORD_LENGTH.max} characters` });

/** A password being checked at sign-in: any non-empty value up to a bound (old passwords may predate the rule). */
export const signInPassword = z.string({ message: 'is required' }).min(1, { message: 'is required' }).max(1024);

/**
 * A username: 3–64 letters, digits, dot, dash or underscore (unique case-insensitively, checked by the service).
 * It cannot be cleared: null (an emptied form input) is "is required".
 */
export const username = z
  .string({ error: (issue) => (issue.input === null || issue.input === undefined ? 'is required' : 'must be text') })
  .trim()
  .min(USERNAME_LENGTH.min, { message: `must be at least ${USERNAME_LENGTH.min} characters` })
  .max(USERNAME_LENGTH.max, { message: `must be at most ${USERNAME_LENGTH.max} characters` })
  .regex(/^[\p{L}\p{N}._-]+$/u, { message: 'may contain letters, digits, dot, dash and underscore' });

/** A first or last name: trimmed, at most 100 characters. */
export const personName = z
  .string({ message: 'must be text' })
  .trim()
  .max(NAME_MAX_LENGTH, { message: `must be at most ${NAME_MAX_LENGTH} characters` });

/** A same-origin path to continue to after a form post (checked again by safeRedirect before use). */
export const redirectField = z.string().max(2048).optional();

/**
 * An optional text input of a form or JSON body: an empty string (an untouched form input) counts as
 * absent, anything else must pass the rule.
 */
export function optionalInput<S extends z.ZodType<unknown, string>>(rule: S) {
  return z.preprocess((value) => (typeof value === 'string' && value.trim() === '' ? undefined : value), rule.optional());
}
