import { copyRecord, ownValue, setOwn } from './profile-records';
import { isPlainObject, type NormalizedProfileDefinition, type NormalizedProfileField } from './profile-types';

/* Defaults and merging of stored custom data; validation (profile-values.ts) judges the result. */

function applyFieldDefaults(fields: readonly NormalizedProfileField[], data: unknown): Record<string, unknown> {
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
export function applyDefaults(def: NormalizedProfileDefinition, data: unknown, only?: readonly string[]): Record<string, unknown> {
  return applyFieldDefaults(only ? def.fields.filter((field) => only.includes(field.name)) : def.fields, data);
}

/** Shallow merge of top-level keys, patch winning. The caller validates the merged result. */
export function mergeProfileData(stored: unknown, patch: unknown): Record<string, unknown> {
  const merged = copyRecord(stored);
  if (isPlainObject(patch)) {
    for (const key of Object.keys(patch)) setOwn(merged, key, patch[key]);
  }
  return merged;
}
