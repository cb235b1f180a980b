export type ProfileFieldType = 'string' | 'number' | 'boolean' | 'select' | 'multiselect' | 'radio' | 'textarea' | 'json' | 'object';
export declare const PROFILE_FIELD_TYPES: readonly ProfileFieldType[];
/** Types whose values are picked from `options`. */
export declare const CHOICE_FIELD_TYPES: readonly ProfileFieldType[];
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
export declare const BUILT_IN_PROFILE_FIELDS: readonly BuiltInProfileField[];
/** Standard user fields: `/auth/me` merges custom fields into the user object, so they must not clash. */
export declare const USER_FIELD_NAMES: readonly string[];
/** Field names are JSON keys, form input names and template variables: identifiers only. */
export declare const FIELD_NAME_PATTERN: RegExp;
/** Object fields nest at most this deep; also stops a self-referencing programmatic definition. */
export declare const MAX_NESTING_DEPTH = 5;
export declare class ProfileDefinitionError extends Error {
    /** Path of the offending field or property, e.g. `field "address.city"` or `registrationFields[1]`. */
    readonly path: string | undefined;
    constructor(message: string, path?: string, prefix?: string);
}
export declare const EMPTY_PROFILE_DEFINITION: NormalizedProfileDefinition;
/**
 * Checks a user-profile definition from any source (JSON file, JS module, code) and returns it
 * normalized (labels, required/hidden flags, registrationFields filled in) and deep-frozen.
 * Throws ProfileDefinitionError naming the offending field.
 */
export declare function validateProfileDefinition(def: unknown): NormalizedProfileDefinition;
/** Typed entry point for programmatic configuration: `userProfile: defineUserProfile({ fields: [...] })`. */
export declare function defineUserProfile(def: UserProfileDefinition): NormalizedProfileDefinition;
/**
 * Checks the AUTH_CONFIG export (`{ userProfile }`, possibly under an ES-module `default`). A missing
 * `userProfile` means no custom fields.
 */
export declare function validateAuthConfig(config: unknown): NormalizedAuthConfig;
/** The definitions of the fields shown on the registration form, in registrationFields order. */
export declare function registrationFieldDefinitions(def: NormalizedProfileDefinition): NormalizedProfileField[];
