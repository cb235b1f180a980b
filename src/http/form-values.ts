/**
 * Typed values from urlencoded admin forms, before the one schema that judges them (the API's). Input
 * that does not convert is passed on as typed, so that schema's refusal names the field.
 */

/** Numeric text short enough to be a setting; anything else stays text. */
const NUMERIC_INPUT = /^[+-]?\d{1,15}(?:\.\d{1,15})?$/;

/** A number field: numeric text as a number, blank as undefined, anything else as typed. */
export function numberValue(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw;
  const text = raw.trim();
  if (text === '') return undefined;
  return NUMERIC_INPUT.test(text) ? Number(text) : raw;
}

/**
 * A checkbox (views/partials/form-field.ejs sends a hidden "off" before it, so a checked box arrives as
 * ["off", "on"]): the last value decides; absent or "off" is false.
 */
export function checkboxValue(raw: unknown): unknown {
  const value = Array.isArray(raw) ? (raw as unknown[]).at(-1) : raw;
  if (value === undefined || value === '' || value === 'off' || value === 'false') return false;
  return value === 'on' || value === 'true' ? true : value;
}
