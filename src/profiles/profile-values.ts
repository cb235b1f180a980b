import { matchesPattern } from './profile-pattern';
import { ownValue, setOwn } from './profile-records';
import { isPlainObject, type NormalizedProfileDefinition, type NormalizedProfileField } from './profile-types';

/*
 * Validation of custom profile data (the `customData` object) against a normalized definition.
 *
 * The definition is trusted (operator configuration, checked at boot); the data is not: it arrives from
 * API clients and HTML forms. Every function here therefore treats data as `unknown`, reads only own
 * properties, never copies a key it does not know into a result, and never throws on odd input.
 */

/** Longest string or textarea value accepted; also the cap applied before any pattern runs. */
export const MAX_STRING_LENGTH = 10_000;
/** Largest serialized size (UTF-8 bytes) of a `json` field value. */
export const MAX_JSON_BYTES = 64 * 1024;
/** Error key used when the data as a whole is not an object. */
export const ROOT_ERROR_KEY = '_';

/** User-facing messages (CONTRACT 4 "Profiles"); the parametrised ones are builders. */
const MESSAGES = {
  unknownField: 'unknown field',
  required: (label: string) => `${label} is required`,
  notNumber: 'must be a number',
  atLeast: (min: number) => `must be at least ${min}`,
  atMost: (max: number) => `must be at most ${max}`,
  atLeastChars: (min: number) => `must be at least ${min} characters`,
  atMostChars: (max: number) => `must be at most ${max} characters`,
  notBoolean: 'must be true or false',
  oneOf: (options: readonly string[]) => `must be one of: ${options.join(', ')}`,
  notString: 'must be a string',
  formatInvalid: 'format is invalid',
  notJson: 'must be a JSON value',
  tooLarge: 'is too large',
  notObject: 'must be an object',
} as const;

type ProfileErrors = Record<string, string>;
export type ProfileValidationResult =
  | { ok: true; value: Record<string, unknown> }
  | { ok: false; errors: ProfileErrors };

export interface ValidateProfileOptions {
  /** Only these top-level fields are accepted (registration form); any other key is an unknown field. */
  only?: readonly string[];
}

/** Marks "leave this key out of the result" (the value was absent). */
const OMIT: unique symbol = Symbol('omit');
type ScalarCheck = { value: unknown } | { error: string };

function addError(errors: ProfileErrors, path: string, message: string): void {
  if (!Object.prototype.hasOwnProperty.call(errors, path)) setOwn(errors, path, message);
}

function isMissing(field: NormalizedProfileField, raw: unknown): boolean {
  if (raw === undefined || raw === null || raw === '') return true;
  // An empty selection is no answer to a required multiselect.
  return field.type === 'multiselect' && Array.isArray(raw) && raw.length === 0;
}

/** Types for which an empty string is a legitimate value rather than "nothing chosen". */
const TEXT_TYPES: ReadonlySet<string> = new Set(['string', 'textarea', 'json']);

/**
 * What an optional field stores when it is absent or cleared. Clearing skips format rules on purpose:
 * an optional postcode with a pattern must still be erasable with ''.
 */
function clearedValue(field: NormalizedProfileField, raw: unknown): unknown {
  if (raw === undefined) return OMIT;
  if (raw === '') return TEXT_TYPES.has(field.type) ? '' : null;
  return raw; // null stays null; [] stays [] for a multiselect.
}

function checkNumber(field: NormalizedProfileField, raw: unknown): ScalarCheck {
  // Numbers only: a numeric string from JSON is a client bug, not a number (forms use coerceFormValues).
  if (typeof raw !== 'number' || !Number.isFinite(raw)) return { error: MESSAGES.notNumber };
  const { min, max } = field.validation ?? {};
  if (min !== undefined && raw < min) return { error: MESSAGES.atLeast(min) };
  if (max !== undefined && raw > max) return { error: MESSAGES.atMost(max) };
  return { value: raw };
}

function checkString(field: NormalizedProfileField, raw: unknown): ScalarCheck {
  if (typeof raw !== 'string') return { error: MESSAGES.notString };
  // The cap comes first so that no pattern ever runs on an oversized string (see ReDoS note above).
  if (raw.length > MAX_STRING_LENGTH) return { error: MESSAGES.atMostChars(MAX_STRING_LENGTH) };
  const { min, max, pattern } = field.validation ?? {};
  // Characters as a person counts them (code points): "😀" is one, not the two UTF-16 units of `length`.
  const characters = min !== undefined || max !== undefined ? [...raw].length : 0;
  if (min !== undefined && characters < min) return { error: MESSAGES.atLeastChars(min) };
  if (max !== undefined && characters > max) return { error: MESSAGES.atMostChars(max) };
  if (pattern !== undefined && !matchesPattern(pattern, raw)) return { error: MESSAGES.formatInvalid };
  return { value: raw };
}

function checkBoolean(raw: unknown): ScalarCheck {
  return typeof raw === 'boolean' ? { value: raw } : { error: MESSAGES.notBoolean };
}

function checkChoice(field: NormalizedProfileField, raw: unknown): ScalarCheck {
  const options = field.options ?? [];
  return typeof raw === 'string' && options.includes(raw) ? { value: raw } : { error: MESSAGES.oneOf(options) };
}

function checkMultiChoice(field: NormalizedProfileField, raw: unknown): ScalarCheck {
  const options = field.options ?? [];
  const error = { error: MESSAGES.oneOf(options) };
  if (!Array.isArray(raw)) return error;
  const allowed = new Set(options);
  const chosen = new Set<string>();
  for (const item of raw as unknown[]) {
    if (typeof item !== 'string' || !allowed.has(item)) return error;
    chosen.add(item);
  }
  // Duplicates carry no meaning; the stored value keeps each choice once, in the order given.
  return { value: [...chosen] };
}

function checkJson(raw: unknown): ScalarCheck {
  let text: string | undefined;
  try {
    text = JSON.stringify(raw);
  } catch (err) {
    // RangeError: nesting too deep for the serializer; anything else: cycles, BigInt.
    return { error: err instanceof RangeError ? MESSAGES.tooLarge : MESSAGES.notJson };
  }
  if (text === undefined) return { error: MESSAGES.notJson };
  // Character count is a cheap lower bound of the byte count; only measure bytes when it might fit.
  if (text.length > MAX_JSON_BYTES || Buffer.byteLength(text, 'utf8') > MAX_JSON_BYTES) {
    return { error: MESSAGES.tooLarge };
  }
  // Store a detached copy: no shared references with the request, no non-JSON leftovers.
  return { value: JSON.parse(text) as unknown };
}

function checkScalar(field: NormalizedProfileField, raw: unknown): ScalarCheck {
  switch (field.type) {
    case 'number':
      return checkNumber(field, raw);
    case 'string':
    case 'textarea':
      return checkString(field, raw);
    case 'boolean':
      return checkBoolean(raw);
    case 'select':
    case 'radio':
      return checkChoice(field, raw);
    case 'multiselect':
      return checkMultiChoice(field, raw);
    case 'json':
      return checkJson(raw);
    case 'object':
      // Handled by checkFieldValue; never reached.
      return { error: MESSAGES.notObject };
  }
}

/**
 * Validates one field's value, recording errors under `path`. Returns the clean value to store, or
 * OMIT when the key should be left out.
 */
function checkFieldValue(
  field: NormalizedProfileField,
  raw: unknown,
  path: string,
  errors: ProfileErrors,
): unknown {
  if (isMissing(field, raw)) {
    if (field.required) {
      addError(errors, path, MESSAGES.required(field.label));
      return OMIT;
    }
    return clearedValue(field, raw);
  }
  if (field.type === 'object') return checkObject(field, raw, path, errors);
  const checked = checkScalar(field, raw);
  if ('error' in checked) {
    addError(errors, path, checked.error);
    return OMIT;
  }
  return checked.value;
}

function checkObject(
  field: NormalizedProfileField,
  raw: unknown,
  path: string,
  errors: ProfileErrors,
): unknown {
  if (!isPlainObject(raw)) {
    addError(errors, path, MESSAGES.notObject);
    return OMIT;
  }
  return checkRecord(field.fields ?? [], raw, `${path}.`, errors);
}

/**
 * Validates a record against a list of fields. Recursion depth is bounded by the definition (hostile
 * nesting below a non-object field is never walked, except by the json serializer, which is guarded).
 */
function checkRecord(
  fields: readonly NormalizedProfileField[],
  data: Record<string, unknown>,
  prefix: string,
  errors: ProfileErrors,
  only?: ReadonlySet<string>,
): Record<string, unknown> {
  const accepted = fields.filter((field) => !only || only.has(field.name));
  const acceptedNames = new Set(accepted.map((field) => field.name));
  for (const key of Object.keys(data)) {
    if (!acceptedNames.has(key)) addError(errors, prefix + key, MESSAGES.unknownField);
  }
  // Built from known names only; names were checked at boot to be safe identifiers (no __proto__).
  const value: Record<string, unknown> = {};
  for (const field of accepted) {
    const checked = checkFieldValue(field, ownValue(data, field.name), prefix + field.name, errors);
    if (checked !== OMIT) value[field.name] = checked;
  }
  return value;
}

/**
 * Validates custom profile data. On success `value` is a new object holding only defined fields;
 * on failure `errors` maps `field` (or `parent.child`) to a message. Never throws.
 * With `only` (registration), keys outside `only` count as unknown; apply the defaults of `only` first.
 */
export function validateProfileData(
  def: NormalizedProfileDefinition,
  data: unknown,
  opts: ValidateProfileOptions = {},
): ProfileValidationResult {
  const errors: ProfileErrors = {};
  if (!isPlainObject(data)) {
    addError(errors, ROOT_ERROR_KEY, MESSAGES.notObject);
    return { ok: false, errors };
  }
  const only = opts.only ? new Set(opts.only) : undefined;
  const value = checkRecord(def.fields, data, '', errors, only);
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, value };
}

export type FieldValidationResult = { ok: true; value: unknown } | { ok: false; errors: ProfileErrors };

/**
 * Validates a single field's value (used by the definition checker for defaults). `value` is the clean
 * value, undefined when the input was absent.
 */
export function validateFieldValue(
  field: NormalizedProfileField,
  value: unknown,
  path: string = field.name,
): FieldValidationResult {
  const errors: ProfileErrors = {};
  const checked = checkFieldValue(field, value, path, errors);
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, value: checked === OMIT ? undefined : checked };
}
