import { ownValue, setOwn } from './profile-records';
import { isPlainObject, type NormalizedProfileDefinition, type NormalizedProfileField } from './profile-types';
import { MAX_JSON_BYTES } from './profile-values';
import { coerceBoolean, coerceNumber } from '../http/form-values';

/* HTML forms post text only: turn an urlencoded body into the typed values profile-values.ts expects. */

function coerceMultiselect(raw: unknown): unknown {
  if (raw === undefined) return [];
  if (typeof raw === 'string') return raw === '' ? [] : [raw];
  if (Array.isArray(raw)) return (raw as unknown[]).filter((item) => item !== '');
  return raw;
}

/** The value JSON text stands for, or NOT_JSON. */
const NOT_JSON = Symbol('not JSON');
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return NOT_JSON;
  }
}

function coerceJson(raw: unknown): unknown {
  if (typeof raw !== 'string' || raw.length > MAX_JSON_BYTES) return raw;
  const parsed = parseJson(raw);
  // Not JSON text: keep it as a JSON string value (typing `hello` stores "hello").
  return parsed === NOT_JSON ? raw : parsed;
}

/**
 * A json field's value as the form shows it, so that posting the form back unchanged stores the same
 * value (coerceJson's inverse): JSON text, except a string that does not read as JSON, shown bare. A
 * string such as "123" or "true" is shown quoted, else it would come back as a number or a boolean.
 */
export function jsonFieldText(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'string' && parseJson(value) === NOT_JSON) return value;
  return JSON.stringify(value, null, 2);
}

/** Collects `parent.child` form keys into a record for an object field; undefined when none is present. */
function collectNested(form: Record<string, unknown>, prefix: string): Record<string, unknown> | undefined {
  let nested: Record<string, unknown> | undefined;
  for (const key of Object.keys(form)) {
    if (!key.startsWith(prefix)) continue;
    nested ??= {};
    setOwn(nested, key.slice(prefix.length), form[key]);
  }
  return nested;
}

function coerceField(field: NormalizedProfileField, form: Record<string, unknown>, key: string): unknown {
  const raw = ownValue(form, key);
  if (field.type === 'boolean') return coerceBoolean(raw);
  if (field.type === 'multiselect') return coerceMultiselect(raw);
  if (field.type === 'object') {
    const nested = isPlainObject(raw) ? raw : collectNested(form, `${key}.`);
    if (nested === undefined) return undefined;
    const record = coerceRecord(field.fields ?? [], nested);
    // Every input of the group left blank: the object was not filled in (an optional one stays absent).
    return Object.keys(record).length === 0 ? undefined : record;
  }
  if (raw === '') return undefined; // An empty input is "not filled in" for every other type.
  if (field.type === 'number') return coerceNumber(raw);
  if (field.type === 'json') return coerceJson(raw);
  return raw; // string, textarea, select, radio: strings as posted.
}

function coerceRecord(fields: readonly NormalizedProfileField[], form: Record<string, unknown>): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const field of fields) {
    const value = coerceField(field, form, field.name);
    if (value !== undefined) result[field.name] = value;
  }
  return result;
}

/**
 * Converts an urlencoded form body to typed values for the named top-level fields (e.g. the
 * definition's registrationFields): numbers from numeric strings ('' → absent), checkboxes to booleans
 * (absent → false), multiselect to string[] (absent → []), json from JSON text, object fields from
 * `parent.child` keys, everything else as posted. Unparseable input is kept so validation reports it.
 */
export function coerceFormValues(
  def: NormalizedProfileDefinition,
  fields: readonly string[],
  formBody: unknown,
): Record<string, unknown> {
  const form = isPlainObject(formBody) ? formBody : {};
  const wanted = new Set(fields);
  return coerceRecord(
    def.fields.filter((field) => wanted.has(field.name)),
    form,
  );
}
