/**
 * The plain rules of an account's text, below every layer that reads an address or a length: the one normal
 * form of an email and its rule, and the lengths the input schemas (src/schemas/input-rules.ts), the
 * configuration and the services all hold to.
 */

export const PASSWORD_LENGTH = { min: 8, max: 128 } as const;
export const USERNAME_LENGTH = { min: 3, max: 64 } as const;
export const NAME_MAX_LENGTH = 100;
export const EMAIL_MAX_LENGTH = 255;

export const EMAIL_MESSAGES = {
  invalid: 'must be a valid email address',
  tooLong: `must be at most ${EMAIL_MAX_LENGTH} characters`,
} as const;

/**
 * The address shapes accepted (zod's own email pattern, on the normal form): ASCII only, dot-separated
 * local part without a leading, trailing or doubled dot, a domain of letter/digit/dash labels ending in a
 * letters-only top-level label. ASCII only, because a look-alike (Cyrillic "а", "ä", fullwidth "ａ") must
 * never meet a real address: refused, never folded (NFKC would map "ａdmin" onto "admin", the attack).
 * A trailing dot ("example.com.", DNS's absolute form of the same domain) is refused rather than
 * stripped: no provider or mailbox hands it out, and one spelling per address keeps lookups exact.
 */
const EMAIL_PATTERN = /^(?:[a-z0-9_'+-]+\.)*[a-z0-9_'+-]*[a-z0-9_+-]@(?:[a-z0-9][a-z0-9-]*\.)+[a-z]{2,}$/;

/**
 * The one normal form of an email for lookup and storage (CONTRACT 4: trimmed and lower-cased). It
 * touches ASCII only: String#toLowerCase maps the Kelvin sign "\u212A" to "k", so "\u212Aim@x.com" would
 * become someone else's "kim@x.com"; here it stays itself and the rule refuses it.
 */
export function normalizeEmail(value: string): string {
  return value.replace(/^[\t\n\v\f\r ]+|[\t\n\v\f\r ]+$/g, '').replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

/** The one email rule, on a normalised address: at most 255 characters of the pattern above. */
export function isEmailAddress(address: string): boolean {
  return address.length <= EMAIL_MAX_LENGTH && EMAIL_PATTERN.test(address);
}

/**
 * An email as every caller without a zod schema takes it (provider profiles, createUser): the normal
 * form when it passes the rule, else null.
 */
export function emailAddress(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const address = normalizeEmail(value);
  return isEmailAddress(address) ? address : null;
}
