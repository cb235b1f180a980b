import assert from 'node:assert/strict';
import { defineUserProfile } from '../../src/profiles/profile-definition';
import type { ProfileField } from '../../src/profiles/profile-types';
import { validateProfileData, type ProfileValidationResult } from '../../src/profiles/profile-values';

/* Definitions and result readers shared by the profile value, defaults and form tests. */

/** A definition with the given fields and nothing else. */
export function defOf(...fields: ProfileField[]) {
  return defineUserProfile({ fields });
}

export function errorsOf(result: ProfileValidationResult): Record<string, string> {
  assert.equal(result.ok, false, `expected errors, got ${JSON.stringify(result)}`);
  return result.ok ? {} : result.errors;
}

export function valueOf(result: ProfileValidationResult): Record<string, unknown> {
  assert.ok(result.ok, `expected success, got ${JSON.stringify(result)}`);
  return result.value;
}

/** Validates `{ [name]: value }` against a one-field definition and returns that field's error, if any. */
export function fieldError(field: ProfileField, value: unknown): string | undefined {
  const result = validateProfileData(defOf(field), { [field.name]: value });
  return result.ok ? undefined : result.errors[field.name];
}

export const PLAN: ProfileField = { name: 'plan', label: 'Plan', type: 'select', options: ['free', 'pro'] };
export const ADDRESS: ProfileField = {
  name: 'address',
  label: 'Address',
  type: 'object',
  fields: [
    { name: 'street', label: 'Street', type: 'string', required: true },
    { name: 'zip', type: 'string', validation: { pattern: '^\\d{5}$' } },
    { name: 'floor', type: 'number', validation: { min: 0, max: 200 } },
  ],
};
