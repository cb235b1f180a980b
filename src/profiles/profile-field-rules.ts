import { applyDefaults } from './profile-defaults';
import { compilePattern } from './profile-pattern';
import {
  BUILT_IN_PROFILE_FIELDS,
  CHOICE_FIELD_TYPES,
  PROFILE_FIELD_TYPES,
  ProfileDefinitionError,
  USER_FIELD_NAMES,
  isPlainObject,
  type NormalizedProfileField,
  type ProfileFieldType,
  type ProfileFieldValidation,
} from './profile-types';
import { validateFieldValue } from './profile-values';

/*
 * Checks and normalizes one field of a user-profile definition (and, through object fields, its nested
 * fields). Every rule the value validator later relies on is enforced here, once, at boot.
 */

/** Types where `validation.min`/`max` mean a length and `pattern` applies. */
const TEXT_FIELD_TYPES: readonly ProfileFieldType[] = ['string', 'textarea'];

/** Field names are JSON keys, form input names and template variables: identifiers only. */
const FIELD_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Names that would shadow or reach Object.prototype when used as a key (`__proto__`, `constructor`,
 * `toString`, …). Downstream code may index plain objects by field name, so these are refused outright.
 */
const PROTOTYPE_NAMES: ReadonlySet<string> = new Set([...Object.getOwnPropertyNames(Object.prototype), 'prototype']);

/** Object fields nest at most this deep; also stops a self-referencing programmatic definition. */
export const MAX_NESTING_DEPTH = 5;

const FIELD_PROPERTIES: ReadonlySet<string> = new Set([
  'name',
  'label',
  'type',
  'options',
  'default',
  'required',
  'validation',
  'hidden',
  'fields',
]);
const VALIDATION_PROPERTIES: ReadonlySet<string> = new Set(['min', 'max', 'pattern']);

export function quoted(value: unknown): string {
  return typeof value === 'string' ? `"${value}"` : String(value);
}

/** Where a field sits, for error messages: its dotted name when it has a usable one, else its index. */
interface FieldLocation {
  /** Dotted path of the parent object field ('' at top level). */
  parent: string;
  index: number;
}

function fieldPath(location: FieldLocation, name?: string): string {
  if (name !== undefined) return `field "${location.parent ? `${location.parent}.` : ''}${name}"`;
  const list = location.parent ? `field "${location.parent}" fields` : 'fields';
  return `${list}[${location.index}]`;
}

/* ------------------------------------------------------------------------------------------------ */
/* Field checks                                                                                      */
/* ------------------------------------------------------------------------------------------------ */

function checkName(raw: Record<string, unknown>, location: FieldLocation, taken: Set<string>): string {
  const name = raw.name;
  if (name === undefined) throw new ProfileDefinitionError('"name" is required', fieldPath(location));
  if (typeof name !== 'string' || !FIELD_NAME_PATTERN.test(name)) {
    throw new ProfileDefinitionError(
      `name ${quoted(name)} is invalid (letters, digits and _, not starting with a digit)`,
      fieldPath(location),
    );
  }
  const path = fieldPath(location, name);
  if (PROTOTYPE_NAMES.has(name)) throw new ProfileDefinitionError('this name is reserved', path);
  if (taken.has(name)) throw new ProfileDefinitionError('duplicate field name', path);
  if (location.parent === '') checkTopLevelName(name, path);
  taken.add(name);
  return name;
}

/** Only top-level names meet built-in and user fields; nested names live inside their parent's object. */
function checkTopLevelName(name: string, path: string): void {
  if (BUILT_IN_PROFILE_FIELDS.some((field) => field.name === name)) {
    throw new ProfileDefinitionError(
      'collides with a built-in profile field (custom fields extend the built-in ones, never replace them)',
      path,
    );
  }
  if (USER_FIELD_NAMES.includes(name)) throw new ProfileDefinitionError('collides with a standard user field', path);
}

/** Typo protection: a misspelt property (`requried`) would otherwise be ignored without a word. */
export function checkKnownProperties(
  raw: Record<string, unknown>,
  allowed: ReadonlySet<string>,
  path: string | undefined,
  keyPrefix = '',
): void {
  for (const key of Object.keys(raw)) {
    if (!allowed.has(key)) throw new ProfileDefinitionError(`unknown property "${keyPrefix}${key}"`, path);
  }
}

function checkType(raw: Record<string, unknown>, path: string): ProfileFieldType {
  const type = raw.type;
  if (type === undefined) throw new ProfileDefinitionError('"type" is required', path);
  const known = PROFILE_FIELD_TYPES.find((candidate) => candidate === type);
  if (!known) {
    throw new ProfileDefinitionError(
      `unknown type ${quoted(type)} (expected one of: ${PROFILE_FIELD_TYPES.join(', ')})`,
      path,
    );
  }
  return known;
}

function checkOptionalString(raw: Record<string, unknown>, key: string, path: string): string | undefined {
  const value = raw[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '') {
    throw new ProfileDefinitionError(`"${key}" must be a non-empty string`, path);
  }
  return value;
}

function checkOptionalBoolean(raw: Record<string, unknown>, key: string, path: string): boolean {
  const value = raw[key];
  if (value === undefined) return false;
  if (typeof value !== 'boolean') throw new ProfileDefinitionError(`"${key}" must be true or false`, path);
  return value;
}

function checkOptions(raw: Record<string, unknown>, type: ProfileFieldType, path: string): string[] | undefined {
  const options = raw.options;
  if (!CHOICE_FIELD_TYPES.includes(type)) {
    if (options === undefined) return undefined;
    throw new ProfileDefinitionError(`"options" applies only to ${CHOICE_FIELD_TYPES.join(', ')} fields`, path);
  }
  if (!Array.isArray(options) || options.length === 0) {
    throw new ProfileDefinitionError(`${type} needs a non-empty "options" list`, path);
  }
  if (!(options as unknown[]).every((option) => typeof option === 'string' && option !== '')) {
    throw new ProfileDefinitionError('"options" must contain only non-empty strings', path);
  }
  const list = [...(options as string[])];
  if (new Set(list).size !== list.length) throw new ProfileDefinitionError('"options" contains duplicates', path);
  return list;
}

function checkBound(
  validation: Record<string, unknown>,
  key: 'min' | 'max',
  type: ProfileFieldType,
  path: string,
): number | undefined {
  const value = validation[key];
  if (value === undefined) return undefined;
  const isText = TEXT_FIELD_TYPES.includes(type);
  if (type !== 'number' && !isText) {
    throw new ProfileDefinitionError(`validation.${key} applies only to number, string and textarea fields`, path);
  }
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new ProfileDefinitionError(`validation.${key} must be a finite number`, path);
  }
  if (isText && (!Number.isInteger(value) || value < 0)) {
    throw new ProfileDefinitionError(`validation.${key} must be a whole number of characters`, path);
  }
  return value;
}

function checkPattern(validation: Record<string, unknown>, type: ProfileFieldType, path: string): string | undefined {
  const pattern = validation.pattern;
  if (pattern === undefined) return undefined;
  if (!TEXT_FIELD_TYPES.includes(type)) {
    throw new ProfileDefinitionError('validation.pattern applies only to string and textarea fields', path);
  }
  if (typeof pattern !== 'string') throw new ProfileDefinitionError('validation.pattern must be a string', path);
  try {
    compilePattern(pattern);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new ProfileDefinitionError(`validation.pattern is not a valid regular expression (${reason})`, path);
  }
  return pattern;
}

function checkValidation(
  raw: Record<string, unknown>,
  type: ProfileFieldType,
  path: string,
): ProfileFieldValidation | undefined {
  const validation = raw.validation;
  if (validation === undefined) return undefined;
  if (!isPlainObject(validation)) throw new ProfileDefinitionError('"validation" must be an object', path);
  checkKnownProperties(validation, VALIDATION_PROPERTIES, path, 'validation.');
  const min = checkBound(validation, 'min', type, path);
  const max = checkBound(validation, 'max', type, path);
  if (min !== undefined && max !== undefined && min > max) {
    throw new ProfileDefinitionError(`validation.min (${min}) is greater than validation.max (${max})`, path);
  }
  const pattern = checkPattern(validation, type, path);
  const result: ProfileFieldValidation = {};
  if (min !== undefined) result.min = min;
  if (max !== undefined) result.max = max;
  if (pattern !== undefined) result.pattern = pattern;
  return result;
}

function checkNestedFields(
  raw: Record<string, unknown>,
  type: ProfileFieldType,
  dottedName: string,
  path: string,
  depth: number,
): NormalizedProfileField[] | undefined {
  const fields = raw.fields;
  if (type !== 'object') {
    if (fields === undefined) return undefined;
    throw new ProfileDefinitionError('"fields" applies only to object fields', path);
  }
  if (!Array.isArray(fields) || fields.length === 0) {
    throw new ProfileDefinitionError('object needs a non-empty "fields" list', path);
  }
  if (depth >= MAX_NESTING_DEPTH) {
    throw new ProfileDefinitionError(`object fields nest at most ${MAX_NESTING_DEPTH} levels deep`, path);
  }
  return normalizeFieldList(fields as unknown[], dottedName, depth + 1);
}

/**
 * The default must pass the field's own rules; the stored default is the validator's clean copy. An
 * object default is judged with its nested defaults filled in, as applyDefaults will store it.
 */
function checkDefault(
  raw: Record<string, unknown>,
  field: NormalizedProfileField,
  dottedName: string,
  path: string,
): unknown {
  if (raw.default === undefined) return undefined;
  const candidate =
    field.type === 'object' && isPlainObject(raw.default)
      ? applyDefaults({ fields: field.fields ?? [], registrationFields: [] }, raw.default)
      : raw.default;
  const result = validateFieldValue(field, candidate, dottedName);
  if (!result.ok) {
    const [where, message] = Object.entries(result.errors)[0];
    const detail = where === dottedName ? message : `${where}: ${message}`;
    throw new ProfileDefinitionError(`"default" is invalid (${detail})`, path);
  }
  return result.value;
}

function normalizeField(raw: unknown, location: FieldLocation, taken: Set<string>, depth: number): NormalizedProfileField {
  if (!isPlainObject(raw)) throw new ProfileDefinitionError('must be an object', fieldPath(location));
  const name = checkName(raw, location, taken);
  const path = fieldPath(location, name);
  const dottedName = location.parent ? `${location.parent}.${name}` : name;
  checkKnownProperties(raw, FIELD_PROPERTIES, path);
  const type = checkType(raw, path);

  const field: {
    -readonly [K in keyof NormalizedProfileField]: NormalizedProfileField[K];
  } = {
    name,
    label: checkOptionalString(raw, 'label', path) ?? name,
    type,
    required: checkOptionalBoolean(raw, 'required', path),
    hidden: checkOptionalBoolean(raw, 'hidden', path),
  };
  const options = checkOptions(raw, type, path);
  if (options) field.options = options;
  const validation = checkValidation(raw, type, path);
  if (validation) field.validation = validation;
  const fields = checkNestedFields(raw, type, dottedName, path, depth);
  if (fields) field.fields = fields;
  const defaultValue = checkDefault(raw, field, dottedName, path);
  if (defaultValue !== undefined) field.default = defaultValue;
  // No page draws a hidden field: required and without a default, no registration or profile page could be saved.
  if (field.hidden && field.required && defaultValue === undefined) {
    throw new ProfileDefinitionError('a hidden required field needs a "default": no form shows it, so no one could fill it in', path);
  }
  return field;
}

export function normalizeFieldList(list: unknown[], parent: string, depth: number): NormalizedProfileField[] {
  const taken = new Set<string>();
  return list.map((raw, index) => normalizeField(raw, { parent, index }, taken, depth));
}
