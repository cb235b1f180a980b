/**
 * Typed values from urlencoded forms (they post text only), before the one schema that judges them:
 * profile fields, plugin settings, security settings. Input that does not convert is passed on as
 * typed, so that schema's refusal names the field.
 */

/** Longest numeric string worth parsing; longer input is left as a string and fails validation. */
const MAX_NUMERIC_INPUT = 64;
/** Unambiguous (no nested or adjacent overlapping quantifiers), so linear on any input. */
const NUMERIC_INPUT = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const CHECKED_VALUES: ReadonlySet<string> = new Set(['on', 'true', '1']);
const UNCHECKED_VALUES: ReadonlySet<string> = new Set(['off', 'false', '0', '']);

/** The last value of a repeated form key: the hidden-input-before-checkbox idiom wants the last one. */
function lastOf(raw: unknown): unknown {
  return Array.isArray(raw) ? (raw as unknown[])[raw.length - 1] : raw;
}

/** A number input: numeric text as a number, blank as undefined, anything else as typed. */
export function coerceNumber(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw;
  const text = raw.trim();
  if (text === '') return undefined;
  if (text.length > MAX_NUMERIC_INPUT || !NUMERIC_INPUT.test(text)) return raw;
  return Number(text);
}

/** A checkbox (views/partials/form-field.ejs sends a hidden "off" before it): absent or unchecked is false. */
export function coerceBoolean(raw: unknown): unknown {
  const value = lastOf(raw);
  if (value === undefined) return false;
  if (typeof value !== 'string') return value;
  if (CHECKED_VALUES.has(value)) return true;
  if (UNCHECKED_VALUES.has(value)) return false;
  return value; // Anything else is reported by validation as "must be true or false".
}
