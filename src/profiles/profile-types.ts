/*
 * Shapes shared by the profile modules: the definition as the operator writes it (ProfileField, …), the
 * normalized definition every other module reads, the built-in and standard user field names, and the one
 * error type a broken definition raises.
 */

export type ProfileFieldType =
  | 'string'
  | 'number'
  | 'boolean'
  | 'select'
  | 'multiselect'
  | 'radio'
  | 'textarea'
  | 'json'
  | 'object';

export const PROFILE_FIELD_TYPES: readonly ProfileFieldType[] = [
  'string',
  'number',
  'boolean',
  'select',
  'multiselect',
  'radio',
  'textarea',
  'json',
  'object',
];

/** Types whose values are picked from `options`. */
export const CHOICE_FIELD_TYPES: readonly ProfileFieldType[] = ['select', 'multiselect', 'radio'];

export interface ProfileFieldValidation {
  /** number: smallest value; string/textarea: shortest length. */
  min?: number;
  /** number: largest value; string/textarea: longest length. */
  max?: number;
  /** string/textarea: regular expression source, tested unanchored (write ^…$ to match the whole value). */
  pattern?: string;
}

export interface ProfileField {
  name: string;
  label?: string;
  type: ProfileFieldType;
  options?: string[];
  default?: unknown;
  required?: boolean;
  validation?: ProfileFieldValidation;
  hidden?: boolean;
  /** Nested fields of an `object` field. */
  fields?: ProfileField[];
}

export interface UserProfileDefinition {
  fields: ProfileField[];
  registrationFields?: string[];
}

export interface AuthConfig {
  userProfile?: UserProfileDefinition;
}

export interface NormalizedProfileField {
  readonly name: string;
  readonly label: string;
  readonly type: ProfileFieldType;
  readonly required: boolean;
  readonly hidden: boolean;
  readonly options?: readonly string[];
  readonly validation?: Readonly<ProfileFieldValidation>;
  readonly fields?: readonly NormalizedProfileField[];
  /** Already validated against the field's own rules; deep-frozen. */
  readonly default?: unknown;
}

export interface NormalizedProfileDefinition {
  readonly fields: readonly NormalizedProfileField[];
  readonly registrationFields: readonly string[];
}

export interface NormalizedAuthConfig {
  readonly userProfile: NormalizedProfileDefinition;
}

export interface BuiltInProfileField {
  readonly name: string;
  readonly type: 'string' | 'integer';
  readonly description: string;
}

/** SPEC 2.3: present on every profile; custom fields extend them and never replace them. */
export const BUILT_IN_PROFILE_FIELDS: readonly BuiltInProfileField[] = Object.freeze(
  [
    { name: 'display_name', type: 'string', description: 'public display name' },
    { name: 'bio', type: 'string', description: 'short biography' },
    { name: 'company', type: 'string', description: 'company or organization' },
    { name: 'job_title', type: 'string', description: 'job title or role' },
    { name: 'website', type: 'string', description: 'personal or company website' },
    { name: 'location', type: 'string', description: 'geographic location' },
    { name: 'date_of_birth', type: 'integer', description: 'unix timestamp' },
  ].map((field) => Object.freeze(field as BuiltInProfileField)),
);

/** Standard user fields: `/auth/me` merges custom fields into the user object, so they must not clash. */
export const USER_FIELD_NAMES: readonly string[] = Object.freeze([
  'id',
  'email',
  'password',
  'username',
  'firstName',
  'lastName',
  'role',
  'active',
  'createdAt',
  'updatedAt',
]);

const DEFINITION_PREFIX = 'Invalid user profile definition';

export class ProfileDefinitionError extends Error {
  /** Path of the offending field or property, e.g. `field "address.city"` or `registrationFields[1]`. */
  readonly path: string | undefined;

  constructor(message: string, path?: string, prefix: string = DEFINITION_PREFIX) {
    super(path ? `${prefix}: ${path}: ${message}` : `${prefix}: ${message}`);
    this.name = 'ProfileDefinitionError';
    this.path = path;
  }
}

export const EMPTY_PROFILE_DEFINITION: NormalizedProfileDefinition = Object.freeze({
  fields: Object.freeze([]),
  registrationFields: Object.freeze([]),
});

/** Plain object: `{}` literal, JSON.parse output or a null-prototype record (querystring output). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
