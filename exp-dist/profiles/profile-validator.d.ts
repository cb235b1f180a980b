import type { NormalizedProfileDefinition, NormalizedProfileField } from './profile-definition';
/** Longest string or textarea value accepted; also the cap applied before any pattern runs. */
export declare const MAX_STRING_LENGTH = 10000;
/** Largest serialized size (UTF-8 bytes) of a `json` field value. */
export declare const MAX_JSON_BYTES: number;
/** Wall-clock budget for one pattern test; a pattern that needs longer is treated as not matching. */
export declare const PATTERN_TIMEOUT_MS = 100;
/** Error key used when the data as a whole is not an object. */
export declare const ROOT_ERROR_KEY = "_";
/** User-facing messages (CONTRACT 4 "Profiles"); the parametrised ones are builders. */
export declare const MESSAGES: {
    readonly unknownField: "unknown field";
    readonly required: (label: string) => string;
    readonly notNumber: "must be a number";
    readonly atLeast: (min: number) => string;
    readonly atMost: (max: number) => string;
    readonly atLeastChars: (min: number) => string;
    readonly atMostChars: (max: number) => string;
    readonly notBoolean: "must be true or false";
    readonly oneOf: (options: readonly string[]) => string;
    readonly notString: "must be a string";
    readonly formatInvalid: "format is invalid";
    readonly notJson: "must be a JSON value";
    readonly tooLarge: "is too large";
    readonly notObject: "must be an object";
};
export type ProfileErrors = Record<string, string>;
export type ProfileValidationResult = {
    ok: true;
    value: Record<string, unknown>;
} | {
    ok: false;
    errors: ProfileErrors;
};
export interface ValidateProfileOptions {
    /** Only these top-level fields are accepted (registration form); any other key is an unknown field. */
    only?: readonly string[];
}
/** Plain object: `{}` literal, JSON.parse output or a null-prototype record (querystring output). */
export declare function isPlainObject(value: unknown): value is Record<string, unknown>;
/** Compiles a definition pattern (cached: patterns come only from the boot-time definition); throws SyntaxError when invalid. */
export declare function compilePattern(pattern: string): RegExp;
/** True when `input` matches; false on no match or when the test exceeds PATTERN_TIMEOUT_MS. */
export declare function matchesPattern(pattern: string, input: string): boolean;
/**
 * Validates custom profile data. On success `value` is a new object holding only defined fields;
 * on failure `errors` maps `field` (or `parent.child`) to a message. Never throws.
 * With `only` (registration), validate the form first and apply defaults afterwards: defaulted keys
 * outside `only` would otherwise count as unknown.
 */
export declare function validateProfileData(def: NormalizedProfileDefinition, data: unknown, opts?: ValidateProfileOptions): ProfileValidationResult;
export type FieldValidationResult = {
    ok: true;
    value: unknown;
} | {
    ok: false;
    errors: ProfileErrors;
};
/**
 * Validates a single field's value (used by the definition checker for defaults). `value` is the clean
 * value, undefined when the input was absent.
 */
export declare function validateFieldValue(field: NormalizedProfileField, value: unknown, path?: string): FieldValidationResult;
/**
 * Returns a new object where every field whose value is undefined gets its default (if it has one),
 * recursively inside present object fields. Other keys are copied as they are (validation judges them).
 */
export declare function applyDefaults(def: NormalizedProfileDefinition, data: unknown): Record<string, unknown>;
/** Shallow merge of top-level keys, patch winning. The caller validates the merged result. */
export declare function mergeProfileData(stored: unknown, patch: unknown): Record<string, unknown>;
/**
 * Converts an urlencoded form body to typed values for the named top-level fields (e.g. the
 * definition's registrationFields): numbers from numeric strings ('' → absent), checkboxes to booleans
 * (absent → false), multiselect to string[] (absent → []), json from JSON text, object fields from
 * `parent.child` keys, everything else as posted. Unparseable input is kept so validation reports it.
 */
export declare function coerceFormValues(def: NormalizedProfileDefinition, fields: readonly string[], formBody: unknown): Record<string, unknown>;
