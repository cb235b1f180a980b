"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.EMPTY_PROFILE_DEFINITION = exports.ProfileDefinitionError = exports.MAX_NESTING_DEPTH = exports.FIELD_NAME_PATTERN = exports.USER_FIELD_NAMES = exports.BUILT_IN_PROFILE_FIELDS = exports.CHOICE_FIELD_TYPES = exports.PROFILE_FIELD_TYPES = void 0;
exports.validateProfileDefinition = validateProfileDefinition;
exports.defineUserProfile = defineUserProfile;
exports.validateAuthConfig = validateAuthConfig;
exports.registrationFieldDefinitions = registrationFieldDefinitions;
const profile_validator_1 = require("./profile-validator");
exports.PROFILE_FIELD_TYPES = [
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
exports.CHOICE_FIELD_TYPES = ['select', 'multiselect', 'radio'];
/** Types where `validation.min`/`max` mean a length and `pattern` applies. */
const TEXT_FIELD_TYPES = ['string', 'textarea'];
/** SPEC 2.3: present on every profile; custom fields extend them and never replace them. */
exports.BUILT_IN_PROFILE_FIELDS = Object.freeze([
    { name: 'display_name', type: 'string', description: 'public display name' },
    { name: 'bio', type: 'string', description: 'short biography' },
    { name: 'company', type: 'string', description: 'company or organization' },
    { name: 'job_title', type: 'string', description: 'job title or role' },
    { name: 'website', type: 'string', description: 'personal or company website' },
    { name: 'location', type: 'string', description: 'geographic location' },
    { name: 'date_of_birth', type: 'integer', description: 'unix timestamp' },
].map((field) => Object.freeze(field)));
/** Standard user fields: `/auth/me` merges custom fields into the user object, so they must not clash. */
exports.USER_FIELD_NAMES = Object.freeze([
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
/** Field names are JSON keys, form input names and template variables: identifiers only. */
exports.FIELD_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;
/**
 * Names that would shadow or reach Object.prototype when used as a key (`__proto__`, `constructor`,
 * `toString`, …). Downstream code may index plain objects by field name, so these are refused outright.
 */
const PROTOTYPE_NAMES = new Set([...Object.getOwnPropertyNames(Object.prototype), 'prototype']);
/** Object fields nest at most this deep; also stops a self-referencing programmatic definition. */
exports.MAX_NESTING_DEPTH = 5;
const FIELD_PROPERTIES = new Set([
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
const VALIDATION_PROPERTIES = new Set(['min', 'max', 'pattern']);
const DEFINITION_PROPERTIES = new Set(['fields', 'registrationFields']);
/** `default` and `__esModule` appear when a config file is an ES module compiled to CommonJS. */
const AUTH_CONFIG_PROPERTIES = new Set(['userProfile', 'default', '__esModule']);
const DEFINITION_PREFIX = 'Invalid user profile definition';
const AUTH_CONFIG_PREFIX = 'Invalid auth config';
class ProfileDefinitionError extends Error {
    /** Path of the offending field or property, e.g. `field "address.city"` or `registrationFields[1]`. */
    path;
    constructor(message, path, prefix = DEFINITION_PREFIX) {
        super(path ? `${prefix}: ${path}: ${message}` : `${prefix}: ${message}`);
        this.name = 'ProfileDefinitionError';
        this.path = path;
    }
}
exports.ProfileDefinitionError = ProfileDefinitionError;
exports.EMPTY_PROFILE_DEFINITION = Object.freeze({
    fields: Object.freeze([]),
    registrationFields: Object.freeze([]),
});
/* ------------------------------------------------------------------------------------------------ */
/* Helpers                                                                                           */
/* ------------------------------------------------------------------------------------------------ */
function deepFreeze(value) {
    if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
        Object.freeze(value);
        for (const key of Object.keys(value))
            deepFreeze(value[key]);
    }
    return value;
}
function quoted(value) {
    return typeof value === 'string' ? `"${value}"` : String(value);
}
function fieldPath(location, name) {
    if (name !== undefined)
        return `field "${location.parent ? `${location.parent}.` : ''}${name}"`;
    const list = location.parent ? `field "${location.parent}" fields` : 'fields';
    return `${list}[${location.index}]`;
}
/* ------------------------------------------------------------------------------------------------ */
/* Field checks                                                                                      */
/* ------------------------------------------------------------------------------------------------ */
function checkName(raw, location, taken) {
    const name = raw.name;
    if (name === undefined)
        throw new ProfileDefinitionError('"name" is required', fieldPath(location));
    if (typeof name !== 'string' || !exports.FIELD_NAME_PATTERN.test(name)) {
        throw new ProfileDefinitionError(`name ${quoted(name)} is invalid (letters, digits and _, not starting with a digit)`, fieldPath(location));
    }
    const path = fieldPath(location, name);
    if (PROTOTYPE_NAMES.has(name))
        throw new ProfileDefinitionError('this name is reserved', path);
    if (taken.has(name))
        throw new ProfileDefinitionError('duplicate field name', path);
    if (location.parent === '')
        checkTopLevelName(name, path);
    taken.add(name);
    return name;
}
/** Only top-level names meet built-in and user fields; nested names live inside their parent's object. */
function checkTopLevelName(name, path) {
    if (exports.BUILT_IN_PROFILE_FIELDS.some((field) => field.name === name)) {
        throw new ProfileDefinitionError('collides with a built-in profile field (custom fields extend the built-in ones, never replace them)', path);
    }
    if (exports.USER_FIELD_NAMES.includes(name))
        throw new ProfileDefinitionError('collides with a standard user field', path);
}
/** Typo protection: a misspelt property (`requried`) would otherwise be ignored without a word. */
function checkKnownProperties(raw, allowed, path, keyPrefix = '') {
    for (const key of Object.keys(raw)) {
        if (!allowed.has(key))
            throw new ProfileDefinitionError(`unknown property "${keyPrefix}${key}"`, path);
    }
}
function checkType(raw, path) {
    const type = raw.type;
    if (type === undefined)
        throw new ProfileDefinitionError('"type" is required', path);
    const known = exports.PROFILE_FIELD_TYPES.find((candidate) => candidate === type);
    if (!known) {
        throw new ProfileDefinitionError(`unknown type ${quoted(type)} (expected one of: ${exports.PROFILE_FIELD_TYPES.join(', ')})`, path);
    }
    return known;
}
function checkOptionalString(raw, key, path) {
    const value = raw[key];
    if (value === undefined)
        return undefined;
    if (typeof value !== 'string' || value.trim() === '') {
        throw new ProfileDefinitionError(`"${key}" must be a non-empty string`, path);
    }
    return value;
}
function checkOptionalBoolean(raw, key, path) {
    const value = raw[key];
    if (value === undefined)
        return false;
    if (typeof value !== 'boolean')
        throw new ProfileDefinitionError(`"${key}" must be true or false`, path);
    return value;
}
function checkOptions(raw, type, path) {
    const options = raw.options;
    if (!exports.CHOICE_FIELD_TYPES.includes(type)) {
        if (options === undefined)
            return undefined;
        throw new ProfileDefinitionError(`"options" applies only to ${exports.CHOICE_FIELD_TYPES.join(', ')} fields`, path);
    }
    if (!Array.isArray(options) || options.length === 0) {
        throw new ProfileDefinitionError(`${type} needs a non-empty "options" list`, path);
    }
    if (!options.every((option) => typeof option === 'string' && option !== '')) {
        throw new ProfileDefinitionError('"options" must contain only non-empty strings', path);
    }
    const list = [...options];
    if (new Set(list).size !== list.length)
        throw new ProfileDefinitionError('"options" contains duplicates', path);
    return list;
}
function checkBound(validation, key, type, path) {
    const value = validation[key];
    if (value === undefined)
        return undefined;
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
function checkPattern(validation, type, path) {
    const pattern = validation.pattern;
    if (pattern === undefined)
        return undefined;
    if (!TEXT_FIELD_TYPES.includes(type)) {
        throw new ProfileDefinitionError('validation.pattern applies only to string and textarea fields', path);
    }
    if (typeof pattern !== 'string')
        throw new ProfileDefinitionError('validation.pattern must be a string', path);
    try {
        (0, profile_validator_1.compilePattern)(pattern);
    }
    catch (err) {
        const reason = err instanceof Error ? err.message : String(err);
        throw new ProfileDefinitionError(`validation.pattern is not a valid regular expression (${reason})`, path);
    }
    return pattern;
}
function checkValidation(raw, type, path) {
    const validation = raw.validation;
    if (validation === undefined)
        return undefined;
    if (!(0, profile_validator_1.isPlainObject)(validation))
        throw new ProfileDefinitionError('"validation" must be an object', path);
    checkKnownProperties(validation, VALIDATION_PROPERTIES, path, 'validation.');
    const min = checkBound(validation, 'min', type, path);
    const max = checkBound(validation, 'max', type, path);
    if (min !== undefined && max !== undefined && min > max) {
        throw new ProfileDefinitionError(`validation.min (${min}) is greater than validation.max (${max})`, path);
    }
    const pattern = checkPattern(validation, type, path);
    const result = {};
    if (min !== undefined)
        result.min = min;
    if (max !== undefined)
        result.max = max;
    if (pattern !== undefined)
        result.pattern = pattern;
    return result;
}
function checkNestedFields(raw, type, dottedName, path, depth) {
    const fields = raw.fields;
    if (type !== 'object') {
        if (fields === undefined)
            return undefined;
        throw new ProfileDefinitionError('"fields" applies only to object fields', path);
    }
    if (!Array.isArray(fields) || fields.length === 0) {
        throw new ProfileDefinitionError('object needs a non-empty "fields" list', path);
    }
    if (depth >= exports.MAX_NESTING_DEPTH) {
        throw new ProfileDefinitionError(`object fields nest at most ${exports.MAX_NESTING_DEPTH} levels deep`, path);
    }
    return normalizeFieldList(fields, dottedName, depth + 1);
}
/**
 * The default must pass the field's own rules; the stored default is the validator's clean copy. An
 * object default is judged with its nested defaults filled in, as applyDefaults will store it.
 */
function checkDefault(raw, field, dottedName, path) {
    if (raw.default === undefined)
        return undefined;
    const candidate = field.type === 'object' && (0, profile_validator_1.isPlainObject)(raw.default)
        ? (0, profile_validator_1.applyDefaults)({ fields: field.fields ?? [], registrationFields: [] }, raw.default)
        : raw.default;
    const result = (0, profile_validator_1.validateFieldValue)(field, candidate, dottedName);
    if (!result.ok) {
        const [where, message] = Object.entries(result.errors)[0];
        const detail = where === dottedName ? message : `${where}: ${message}`;
        throw new ProfileDefinitionError(`"default" is invalid (${detail})`, path);
    }
    return result.value;
}
function normalizeField(raw, location, taken, depth) {
    if (!(0, profile_validator_1.isPlainObject)(raw))
        throw new ProfileDefinitionError('must be an object', fieldPath(location));
    const name = checkName(raw, location, taken);
    const path = fieldPath(location, name);
    const dottedName = location.parent ? `${location.parent}.${name}` : name;
    checkKnownProperties(raw, FIELD_PROPERTIES, path);
    const type = checkType(raw, path);
    const field = {
        name,
        label: checkOptionalString(raw, 'label', path) ?? name,
        type,
        required: checkOptionalBoolean(raw, 'required', path),
        hidden: checkOptionalBoolean(raw, 'hidden', path),
    };
    const options = checkOptions(raw, type, path);
    if (options)
        field.options = options;
    const validation = checkValidation(raw, type, path);
    if (validation)
        field.validation = validation;
    const fields = checkNestedFields(raw, type, dottedName, path, depth);
    if (fields)
        field.fields = fields;
    const defaultValue = checkDefault(raw, field, dottedName, path);
    if (defaultValue !== undefined)
        field.default = defaultValue;
    return field;
}
function normalizeFieldList(list, parent, depth) {
    const taken = new Set();
    return list.map((raw, index) => normalizeField(raw, { parent, index }, taken, depth));
}
function checkRegistrationFields(raw, fields) {
    if (raw === undefined)
        return [];
    if (!Array.isArray(raw))
        throw new ProfileDefinitionError('"registrationFields" must be an array of field names');
    const names = new Set(fields.map((field) => field.name));
    const seen = new Set();
    raw.forEach((entry, index) => {
        const path = `registrationFields[${index}]`;
        if (typeof entry !== 'string' || !names.has(entry)) {
            throw new ProfileDefinitionError(`${quoted(entry)} names no top-level field`, path);
        }
        if (seen.has(entry))
            throw new ProfileDefinitionError(`"${entry}" is listed twice`, path);
        seen.add(entry);
    });
    return [...seen];
}
/* ------------------------------------------------------------------------------------------------ */
/* Public API                                                                                        */
/* ------------------------------------------------------------------------------------------------ */
/**
 * Checks a user-profile definition from any source (JSON file, JS module, code) and returns it
 * normalized (labels, required/hidden flags, registrationFields filled in) and deep-frozen.
 * Throws ProfileDefinitionError naming the offending field.
 */
function validateProfileDefinition(def) {
    if (!(0, profile_validator_1.isPlainObject)(def))
        throw new ProfileDefinitionError('must be an object with a "fields" list');
    checkKnownProperties(def, DEFINITION_PROPERTIES, undefined);
    if (!Array.isArray(def.fields))
        throw new ProfileDefinitionError('"fields" must be an array');
    const fields = normalizeFieldList(def.fields, '', 0);
    const registrationFields = checkRegistrationFields(def.registrationFields, fields);
    return deepFreeze({ fields, registrationFields });
}
/** Typed entry point for programmatic configuration: `userProfile: defineUserProfile({ fields: [...] })`. */
function defineUserProfile(def) {
    return validateProfileDefinition(def);
}
/**
 * Checks the AUTH_CONFIG export (`{ userProfile }`, possibly under an ES-module `default`). A missing
 * `userProfile` means no custom fields.
 */
function validateAuthConfig(config) {
    const fail = (message) => {
        throw new ProfileDefinitionError(message, undefined, AUTH_CONFIG_PREFIX);
    };
    let root = config;
    if ((0, profile_validator_1.isPlainObject)(root) && root.userProfile === undefined && (0, profile_validator_1.isPlainObject)(root.default))
        root = root.default;
    if (!(0, profile_validator_1.isPlainObject)(root))
        return fail('must export an object such as { userProfile: { fields: [...] } }');
    for (const key of Object.keys(root)) {
        if (!AUTH_CONFIG_PROPERTIES.has(key))
            fail(`unknown property "${key}" (expected "userProfile")`);
    }
    const userProfile = root.userProfile === undefined ? exports.EMPTY_PROFILE_DEFINITION : validateProfileDefinition(root.userProfile);
    return Object.freeze({ userProfile });
}
/** The definitions of the fields shown on the registration form, in registrationFields order. */
function registrationFieldDefinitions(def) {
    return def.registrationFields
        .map((name) => def.fields.find((field) => field.name === name))
        .filter((field) => field !== undefined);
}
//# sourceMappingURL=profile-definition.js.map