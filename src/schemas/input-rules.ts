import { z } from 'zod';
import { normalizePassword, passwordProblem } from '../credentials/password-quality';
import { EMAIL_MAX_LENGTH, EMAIL_MESSAGES, NAME_MAX_LENGTH, PASSWORD_LENGTH, USERNAME_LENGTH, isEmailAddress, normalizeEmail } from '../util/account-text';

/**
 * The input rules every edge uses (JSON routes, HTML forms, the admin API), so the same value is judged
 * the same everywhere. Services trust values that passed these.
 */

const PASSWORD_LENGTH_MESSAGES = {
  short: `must be at least ${PASSWORD_LENGTH.min} characters`,
  long: `must be at most ${PASSWORD_LENGTH.max} characters`,
} as const;

/**
 * An email address in a body: normalised, then held to the one rule (CONTRACT 4: everywhere it is looked
 * up or stored). The length is checked on the input too, so the API document states it.
 */
export const email = z
  .string({ message: EMAIL_MESSAGES.invalid })
  .max(EMAIL_MAX_LENGTH, { message: EMAIL_MESSAGES.tooLong, abort: true })
  .transform(normalizeEmail)
  .pipe(z.string().refine(isEmailAddress, { message: EMAIL_MESSAGES.invalid }));

/**
 * A password being set (registration, reset, profile change, admin create, seed), as parsed: its NFKC form
 * (the form it is judged, hashed and compared in), 8–128 characters. Its quality is judged with the account
 * it is for: by judgedPassword where the body names the account, by the service (refuseWeakPassword) where
 * the account is known only there.
 */
export const newPassword = z
  .string({ message: 'is required' })
  .min(PASSWORD_LENGTH.min, { message: PASSWORD_LENGTH_MESSAGES.short, abort: true })
  .max(PASSWORD_LENGTH.max, { message: PASSWORD_LENGTH_MESSAGES.long, abort: true })
  // Checked on the input too (above) so the API document states the bounds; NFKC may lengthen or shorten it.
  .transform((value, ctx) => {
    const normal = normalizePassword(value);
    if (normal.length < PASSWORD_LENGTH.min || normal.length > PASSWORD_LENGTH.max) {
      ctx.addIssue({ code: 'custom', message: normal.length < PASSWORD_LENGTH.min ? PASSWORD_LENGTH_MESSAGES.short : PASSWORD_LENGTH_MESSAGES.long });
      return z.NEVER;
    }
    return normal;
  });

/**
 * A body schema whose `password` holds a newPassword, with the one quality rule (credentials/password-quality:
 * not a common password, not the account's own words, zxcvbn score 2 or more) judged against the account the
 * same body names (its `email`, `username`, `firstName`, `lastName`). Judged only once the length passed, so an
 * over-long input never reaches zxcvbn. Asynchronous (a worker thread): parsed with parseOrThrow's await.
 */
export function judgedPassword<T extends z.ZodType<Record<string, unknown>>>(schema: T): T {
  return schema.superRefine(async (body, ctx) => {
    const { password } = body;
    if (typeof password !== 'string' || password.length < PASSWORD_LENGTH.min || password.length > PASSWORD_LENGTH.max) return;
    const text = (value: unknown) => (typeof value === 'string' ? value : null);
    const problem = await passwordProblem(password, { email: text(body.email), username: text(body.username), firstName: text(body.firstName), lastName: text(body.lastName) });
    if (problem) ctx.addIssue({ code: 'custom', path: ['password'], message: problem });
  }) as unknown as T;
}

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
