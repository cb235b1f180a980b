import { deepFreeze } from '../util/deep-freeze';
import { checkKnownProperties, normalizeFieldList, quoted } from './profile-field-rules';
import {
  EMPTY_PROFILE_DEFINITION,
  ProfileDefinitionError,
  isPlainObject,
  type NormalizedAuthConfig,
  type NormalizedProfileDefinition,
  type NormalizedProfileField,
  type UserProfileDefinition,
} from './profile-types';

/*
 * Custom user-profile field definitions (SPEC 2.4): the operator declares them once at boot, through
 * AUTH_CONFIG or `defineUserProfile`. A broken definition must stop the boot with a message naming the
 * field, so everything the validator later relies on is checked here, once.
 */

const DEFINITION_PROPERTIES: ReadonlySet<string> = new Set(['fields', 'registrationFields']);
/** `default` and `__esModule` appear when a config file is an ES module compiled to CommonJS. */
const AUTH_CONFIG_PROPERTIES: ReadonlySet<string> = new Set(['userProfile', 'default', '__esModule']);

const AUTH_CONFIG_PREFIX = 'Invalid auth config';

function checkRegistrationFields(raw: unknown, fields: readonly NormalizedProfileField[]): string[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) throw new ProfileDefinitionError('"registrationFields" must be an array of field names');
  const names = new Set(fields.map((field) => field.name));
  const seen = new Set<string>();
  (raw as unknown[]).forEach((entry, index) => {
    const path = `registrationFields[${index}]`;
    if (typeof entry !== 'string' || !names.has(entry)) {
      throw new ProfileDefinitionError(`${quoted(entry)} names no top-level field`, path);
    }
    if (seen.has(entry)) throw new ProfileDefinitionError(`"${entry}" is listed twice`, path);
    seen.add(entry);
  });
  return [...seen];
}

/**
 * Checks a user-profile definition from any source (JSON file, JS module, code) and returns it
 * normalized (labels, required/hidden flags, registrationFields filled in) and deep-frozen.
 * Throws ProfileDefinitionError naming the offending field.
 */
export function validateProfileDefinition(def: unknown): NormalizedProfileDefinition {
  if (!isPlainObject(def)) throw new ProfileDefinitionError('must be an object with a "fields" list');
  checkKnownProperties(def, DEFINITION_PROPERTIES, undefined);
  if (!Array.isArray(def.fields)) throw new ProfileDefinitionError('"fields" must be an array');
  const fields = normalizeFieldList(def.fields as unknown[], '', 0);
  const registrationFields = checkRegistrationFields(def.registrationFields, fields);
  return deepFreeze({ fields, registrationFields });
}

/** Typed entry point for programmatic configuration: `userProfile: defineUserProfile({ fields: [...] })`. */
export function defineUserProfile(def: UserProfileDefinition): NormalizedProfileDefinition {
  return validateProfileDefinition(def);
}

/**
 * Checks the AUTH_CONFIG export (`{ userProfile }`, possibly under an ES-module `default`). A missing
 * `userProfile` means no custom fields.
 */
export function validateAuthConfig(config: unknown): NormalizedAuthConfig {
  const fail = (message: string): never => {
    throw new ProfileDefinitionError(message, undefined, AUTH_CONFIG_PREFIX);
  };
  let root = config;
  if (isPlainObject(root) && root.userProfile === undefined && isPlainObject(root.default)) root = root.default;
  if (!isPlainObject(root)) return fail('must export an object such as { userProfile: { fields: [...] } }');
  for (const key of Object.keys(root)) {
    if (!AUTH_CONFIG_PROPERTIES.has(key)) fail(`unknown property "${key}" (expected "userProfile")`);
  }
  const userProfile = root.userProfile === undefined ? EMPTY_PROFILE_DEFINITION : validateProfileDefinition(root.userProfile);
  return Object.freeze({ userProfile });
}

/** The definitions of the fields shown on the registration form, in registrationFields order. */
export function registrationFieldDefinitions(def: NormalizedProfileDefinition): NormalizedProfileField[] {
  return def.registrationFields
    .map((name) => def.fields.find((field) => field.name === name))
    .filter((field): field is NormalizedProfileField => field !== undefined);
}
