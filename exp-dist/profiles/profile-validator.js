"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.MESSAGES = exports.ROOT_ERROR_KEY = exports.PATTERN_TIMEOUT_MS = exports.MAX_JSON_BYTES = exports.MAX_STRING_LENGTH = void 0;
exports.isPlainObject = isPlainObject;
exports.compilePattern = compilePattern;
exports.matchesPattern = matchesPattern;
exports.validateProfileData = validateProfileData;
exports.validateFieldValue = validateFieldValue;
exports.applyDefaults = applyDefaults;
exports.mergeProfileData = mergeProfileData;
exports.coerceFormValues = coerceFormValues;
const node_vm_1 = __importDefault(require("node:vm"));
/*
 * Validation of custom profile data (the `customData` object) against a normalized definition.
 *
 * The definition is trusted (operator configuration, checked at boot); the data is not: it arrives from
 * API clients and HTML forms. Every function here therefore treats data as `unknown`, reads only own
 * properties, never copies a key it does not know into a result, and never throws on odd input.
 */
/** Longest string or textarea value accepted; also the cap applied before any pattern runs. */
exports.MAX_STRING_LENGTH = 10_000;
/** Largest serialized size (UTF-8 bytes) of a `json` field value. */
exports.MAX_JSON_BYTES = 64 * 1024;
/** Wall-clock budget for one pattern test; a pattern that needs longer is treated as not matching. */
exports.PATTERN_TIMEOUT_MS = 100;
/** Error key used when the data as a whole is not an object. */
exports.ROOT_ERROR_KEY = '_';
/** User-facing messages (CONTRACT 4 "Profiles"); the parametrised ones are builders. */
exports.MESSAGES = {
    unknownField: 'unknown field',
    required: (label) => `${label} is required`,
    notNumber: 'must be a number',
    atLeast: (min) => `must be at least ${min}`,
    atMost: (max) => `must be at most ${max}`,
    atLeastChars: (min) => `must be at least ${min} characters`,
    atMostChars: (max) => `must be at most ${max} characters`,
    notBoolean: 'must be true or false',
    oneOf: (options) => `must be one of: ${options.join(', ')}`,
    notString: 'must be a string',
    formatInvalid: 'format is invalid',
    notJson: 'must be a JSON value',
    tooLarge: 'is too large',
    notObject: 'must be an object',
};
/** Marks "leave this key out of the result" (the value was absent). */
const OMIT = Symbol('omit');
/* ------------------------------------------------------------------------------------------------ */
/* Small helpers                                                                                     */
/* ------------------------------------------------------------------------------------------------ */
/** Plain object: `{}` literal, JSON.parse output or a null-prototype record (querystring output). */
function isPlainObject(value) {
    if (typeof value !== 'object' || value === null || Array.isArray(value))
        return false;
    const proto = Object.getPrototypeOf(value);
    return proto === Object.prototype || proto === null;
}
/** Own-property read: an inherited `toString` must never look like a submitted value. */
function ownValue(record, key) {
    return Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}
/**
 * Sets a key as an own data property. Plain assignment of a hostile key such as `__proto__` would
 * invoke the prototype setter instead of recording the key; defineProperty never does.
 */
function setOwn(record, key, value) {
    Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
}
function addError(errors, path, message) {
    if (!Object.prototype.hasOwnProperty.call(errors, path))
        setOwn(errors, path, message);
}
function isMissing(field, raw) {
    if (raw === undefined || raw === null || raw === '')
        return true;
    // An empty selection is no answer to a required multiselect.
    return field.type === 'multiselect' && Array.isArray(raw) && raw.length === 0;
}
/** Types for which an empty string is a legitimate value rather than "nothing chosen". */
const TEXT_TYPES = new Set(['string', 'textarea', 'json']);
/**
 * What an optional field stores when it is absent or cleared. Clearing skips format rules on purpose:
 * an optional postcode with a pattern must still be erasable with ''.
 */
function clearedValue(field, raw) {
    if (raw === undefined)
        return OMIT;
    if (raw === '')
        return TEXT_TYPES.has(field.type) ? '' : null;
    return raw; // null stays null; [] stays [] for a multiselect.
}
/* ------------------------------------------------------------------------------------------------ */
/* Pattern matching with a time budget                                                               */
/* ------------------------------------------------------------------------------------------------ */
/*
 * ReDoS: patterns come from the operator and are trusted to be meant well, but not to be efficient, and
 * the strings they run against are hostile. Two defences:
 * 1. Length cap: a string over MAX_STRING_LENGTH is rejected before any pattern sees it, so polynomial
 *    backtracking (e.g. `\s*x\s*` style patterns, O(n^2) or O(n^3)) is bounded by a small n, and a
 *    1 MB body costs nothing.
 * 2. Time budget: the cap alone does not stop exponential patterns such as `^(a+)+$`, which hang on
 *    30 characters. The test runs in a vm context with a timeout; V8 interrupts a running regex when
 *    the timeout fires, and we report the value as not matching instead of blocking the event loop.
 */
const patternCache = new Map();
const patternContext = node_vm_1.default.createContext(Object.create(null));
const patternScript = new node_vm_1.default.Script('pattern.test(input)');
/** Compiles a definition pattern (cached: patterns come only from the boot-time definition); throws SyntaxError when invalid. */
function compilePattern(pattern) {
    let compiled = patternCache.get(pattern);
    if (!compiled) {
        compiled = new RegExp(pattern);
        patternCache.set(pattern, compiled);
    }
    return compiled;
}
/** True when `input` matches; false on no match or when the test exceeds PATTERN_TIMEOUT_MS. */
function matchesPattern(pattern, input) {
    const compiled = compilePattern(pattern);
    const sandbox = patternContext;
    sandbox.pattern = compiled;
    sandbox.input = input;
    try {
        return patternScript.runInContext(patternContext, { timeout: exports.PATTERN_TIMEOUT_MS }) === true;
    }
    catch {
        return false;
    }
    finally {
        sandbox.pattern = undefined;
        sandbox.input = undefined;
    }
}
/* ------------------------------------------------------------------------------------------------ */
/* Per-type checks                                                                                   */
/* ------------------------------------------------------------------------------------------------ */
function checkNumber(field, raw) {
    // Numbers only: a numeric string from JSON is a client bug, not a number (forms use coerceFormValues).
    if (typeof raw !== 'number' || !Number.isFinite(raw))
        return { error: exports.MESSAGES.notNumber };
    const { min, max } = field.validation ?? {};
    if (min !== undefined && raw < min)
        return { error: exports.MESSAGES.atLeast(min) };
    if (max !== undefined && raw > max)
        return { error: exports.MESSAGES.atMost(max) };
    return { value: raw };
}
function checkString(field, raw) {
    if (typeof raw !== 'string')
        return { error: exports.MESSAGES.notString };
    // The cap comes first so that no pattern ever runs on an oversized string (see ReDoS note above).
    if (raw.length > exports.MAX_STRING_LENGTH)
        return { error: exports.MESSAGES.atMostChars(exports.MAX_STRING_LENGTH) };
    const { min, max, pattern } = field.validation ?? {};
    if (min !== undefined && raw.length < min)
        return { error: exports.MESSAGES.atLeastChars(min) };
    if (max !== undefined && raw.length > max)
        return { error: exports.MESSAGES.atMostChars(max) };
    if (pattern !== undefined && !matchesPattern(pattern, raw))
        return { error: exports.MESSAGES.formatInvalid };
    return { value: raw };
}
function checkBoolean(raw) {
    return typeof raw === 'boolean' ? { value: raw } : { error: exports.MESSAGES.notBoolean };
}
function checkChoice(field, raw) {
    const options = field.options ?? [];
    return typeof raw === 'string' && options.includes(raw) ? { value: raw } : { error: exports.MESSAGES.oneOf(options) };
}
function checkMultiChoice(field, raw) {
    const options = field.options ?? [];
    const error = { error: exports.MESSAGES.oneOf(options) };
    if (!Array.isArray(raw))
        return error;
    const allowed = new Set(options);
    const chosen = new Set();
    for (const item of raw) {
        if (typeof item !== 'string' || !allowed.has(item))
            return error;
        chosen.add(item);
    }
    // Duplicates carry no meaning; the stored value keeps each choice once, in the order given.
    return { value: [...chosen] };
}
function checkJson(raw) {
    let text;
    try {
        text = JSON.stringify(raw);
    }
    catch (err) {
        // RangeError: nesting too deep for the serializer; anything else: cycles, BigInt.
        return { error: err instanceof RangeError ? exports.MESSAGES.tooLarge : exports.MESSAGES.notJson };
    }
    if (text === undefined)
        return { error: exports.MESSAGES.notJson };
    // Character count is a cheap lower bound of the byte count; only measure bytes when it might fit.
    if (text.length > exports.MAX_JSON_BYTES || Buffer.byteLength(text, 'utf8') > exports.MAX_JSON_BYTES) {
        return { error: exports.MESSAGES.tooLarge };
    }
    // Store a detached copy: no shared references with the request, no non-JSON leftovers.
    return { value: JSON.parse(text) };
}
function checkScalar(field, raw) {
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
            return { error: exports.MESSAGES.notObject };
    }
}
/* ------------------------------------------------------------------------------------------------ */
/* Field and record validation                                                                       */
/* ------------------------------------------------------------------------------------------------ */
/**
 * Validates one field's value, recording errors under `path`. Returns the clean value to store, or
 * OMIT when the key should be left out.
 */
function checkFieldValue(field, raw, path, errors) {
    if (isMissing(field, raw)) {
        if (field.required) {
            addError(errors, path, exports.MESSAGES.required(field.label));
            return OMIT;
        }
        return clearedValue(field, raw);
    }
    if (field.type === 'object')
        return checkObject(field, raw, path, errors);
    const checked = checkScalar(field, raw);
    if ('error' in checked) {
        addError(errors, path, checked.error);
        return OMIT;
    }
    return checked.value;
}
function checkObject(field, raw, path, errors) {
    if (!isPlainObject(raw)) {
        addError(errors, path, exports.MESSAGES.notObject);
        return OMIT;
    }
    return checkRecord(field.fields ?? [], raw, `${path}.`, errors);
}
/**
 * Validates a record against a list of fields. Recursion depth is bounded by the definition (hostile
 * nesting below a non-object field is never walked, except by the json serializer, which is guarded).
 */
function checkRecord(fields, data, prefix, errors, only) {
    const accepted = fields.filter((field) => !only || only.has(field.name));
    const acceptedNames = new Set(accepted.map((field) => field.name));
    for (const key of Object.keys(data)) {
        if (!acceptedNames.has(key))
            addError(errors, prefix + key, exports.MESSAGES.unknownField);
    }
    // Built from known names only; names were checked at boot to be safe identifiers (no __proto__).
    const value = {};
    for (const field of accepted) {
        const checked = checkFieldValue(field, ownValue(data, field.name), prefix + field.name, errors);
        if (checked !== OMIT)
            value[field.name] = checked;
    }
    return value;
}
/**
 * Validates custom profile data. On success `value` is a new object holding only defined fields;
 * on failure `errors` maps `field` (or `parent.child`) to a message. Never throws.
 * With `only` (registration), validate the form first and apply defaults afterwards: defaulted keys
 * outside `only` would otherwise count as unknown.
 */
function validateProfileData(def, data, opts = {}) {
    const errors = {};
    if (!isPlainObject(data)) {
        addError(errors, exports.ROOT_ERROR_KEY, exports.MESSAGES.notObject);
        return { ok: false, errors };
    }
    const only = opts.only ? new Set(opts.only) : undefined;
    const value = checkRecord(def.fields, data, '', errors, only);
    return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, value };
}
/**
 * Validates a single field's value (used by the definition checker for defaults). `value` is the clean
 * value, undefined when the input was absent.
 */
function validateFieldValue(field, value, path = field.name) {
    const errors = {};
    const checked = checkFieldValue(field, value, path, errors);
    if (Object.keys(errors).length > 0)
        return { ok: false, errors };
    return { ok: true, value: checked === OMIT ? undefined : checked };
}
/* ------------------------------------------------------------------------------------------------ */
/* Defaults and merging                                                                              */
/* ------------------------------------------------------------------------------------------------ */
/** Copies own enumerable keys into a fresh plain object without triggering the __proto__ setter. */
function copyRecord(data) {
    const copy = {};
    if (!isPlainObject(data))
        return copy;
    for (const key of Object.keys(data))
        setOwn(copy, key, data[key]);
    return copy;
}
function applyFieldDefaults(fields, data) {
    const result = copyRecord(data);
    for (const field of fields) {
        let current = ownValue(result, field.name);
        if (current === undefined && field.default !== undefined) {
            // Defaults are frozen in the definition; each profile gets its own mutable copy.
            current = structuredClone(field.default);
            result[field.name] = current;
        }
        // Nested defaults fill in objects that exist; an absent optional object stays absent.
        if (field.type === 'object' && isPlainObject(current)) {
            result[field.name] = applyFieldDefaults(field.fields ?? [], current);
        }
    }
    return result;
}
/**
 * Returns a new object where every field whose value is undefined gets its default (if it has one),
 * recursively inside present object fields. Other keys are copied as they are (validation judges them).
 */
function applyDefaults(def, data) {
    return applyFieldDefaults(def.fields, data);
}
/** Shallow merge of top-level keys, patch winning. The caller validates the merged result. */
function mergeProfileData(stored, patch) {
    const merged = copyRecord(stored);
    if (isPlainObject(patch)) {
        for (const key of Object.keys(patch))
            setOwn(merged, key, patch[key]);
    }
    return merged;
}
/* ------------------------------------------------------------------------------------------------ */
/* HTML form coercion                                                                                */
/* ------------------------------------------------------------------------------------------------ */
/** Longest numeric string worth parsing; longer input is left as a string and fails validation. */
const MAX_NUMERIC_INPUT = 64;
/** Unambiguous (no nested or adjacent overlapping quantifiers), so linear on any input. */
const NUMERIC_INPUT = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const CHECKED_VALUES = new Set(['on', 'true', '1']);
const UNCHECKED_VALUES = new Set(['off', 'false', '0', '']);
function lastOf(raw) {
    // A repeated form key arrives as an array; the hidden-input-before-checkbox idiom wants the last one.
    return Array.isArray(raw) ? raw[raw.length - 1] : raw;
}
function coerceNumber(raw) {
    if (typeof raw !== 'string')
        return raw;
    const text = raw.trim();
    if (text === '')
        return undefined;
    if (text.length > MAX_NUMERIC_INPUT || !NUMERIC_INPUT.test(text))
        return raw;
    return Number(text);
}
function coerceBoolean(raw) {
    const value = lastOf(raw);
    if (value === undefined)
        return false;
    if (typeof value !== 'string')
        return value;
    if (CHECKED_VALUES.has(value))
        return true;
    if (UNCHECKED_VALUES.has(value))
        return false;
    return value; // Anything else is reported by validation as "must be true or false".
}
function coerceMultiselect(raw) {
    if (raw === undefined)
        return [];
    if (typeof raw === 'string')
        return raw === '' ? [] : [raw];
    if (Array.isArray(raw))
        return raw.filter((item) => item !== '');
    return raw;
}
function coerceJson(raw) {
    if (typeof raw !== 'string' || raw.length > exports.MAX_JSON_BYTES)
        return raw;
    try {
        return JSON.parse(raw);
    }
    catch {
        return raw; // Not JSON text: keep it as a JSON string value.
    }
}
/** Collects `parent.child` form keys into a record for an object field; undefined when none is present. */
function collectNested(form, prefix) {
    let nested;
    for (const key of Object.keys(form)) {
        if (!key.startsWith(prefix))
            continue;
        nested ??= {};
        setOwn(nested, key.slice(prefix.length), form[key]);
    }
    return nested;
}
function coerceField(field, form, key) {
    const raw = ownValue(form, key);
    if (field.type === 'boolean')
        return coerceBoolean(raw);
    if (field.type === 'multiselect')
        return coerceMultiselect(raw);
    if (field.type === 'object') {
        const nested = isPlainObject(raw) ? raw : collectNested(form, `${key}.`);
        return nested === undefined ? undefined : coerceRecord(field.fields ?? [], nested);
    }
    if (raw === '')
        return undefined; // An empty input is "not filled in" for every other type.
    if (field.type === 'number')
        return coerceNumber(raw);
    if (field.type === 'json')
        return coerceJson(raw);
    return raw; // string, textarea, select, radio: strings as posted.
}
function coerceRecord(fields, form) {
    const result = {};
    for (const field of fields) {
        const value = coerceField(field, form, field.name);
        if (value !== undefined)
            result[field.name] = value;
    }
    return result;
}
/**
 * Converts an urlencoded form body to typed values for the named top-level fields (e.g. the
 * definition's registrationFields): numbers from numeric strings ('' → absent), checkboxes to booleans
 * (absent → false), multiselect to string[] (absent → []), json from JSON text, object fields from
 * `parent.child` keys, everything else as posted. Unparseable input is kept so validation reports it.
 */
function coerceFormValues(def, fields, formBody) {
    const form = isPlainObject(formBody) ? formBody : {};
    const wanted = new Set(fields);
    return coerceRecord(def.fields.filter((field) => wanted.has(field.name)), form);
}
//# sourceMappingURL=profile-validator.js.map