import assert from 'node:assert/strict';
import { defineUserProfile } from '../../src/profiles/profile-definition';
import type { ProfileField } from '../../src/profiles/profile-types';
import {
  MAX_JSON_BYTES,
  MAX_STRING_LENGTH,
  ROOT_ERROR_KEY,
  validateFieldValue,
  validateProfileData,
} from '../../src/profiles/profile-values';
import { ADDRESS, PLAN, defOf, errorsOf, fieldError, valueOf } from '../support/profiles';

describe('profile validator', () => {
  describe('types and messages', () => {
    it('when a string field gets a string, then it is stored as given', () => {
      assert.deepEqual(valueOf(validateProfileData(defOf({ name: 'nick', type: 'string' }), { nick: 'Ann' })), { nick: 'Ann' });
    });

    it('when a string or textarea field gets a non-string, then "must be a string"', () => {
      for (const type of ['string', 'textarea'] as const) {
        for (const value of [5, true, ['a'], { a: 1 }]) assert.equal(fieldError({ name: 'nick', type }, value), 'must be a string');
      }
    });

    it('when a string is over 10000 characters, then "must be at most 10000 characters"', () => {
      for (const type of ['string', 'textarea'] as const) {
        assert.equal(fieldError({ name: 'nick', type }, 'x'.repeat(MAX_STRING_LENGTH)), undefined);
        assert.equal(fieldError({ name: 'nick', type }, 'x'.repeat(MAX_STRING_LENGTH + 1)), 'must be at most 10000 characters');
      }
    });

    it('when a string does not match the pattern, then "format is invalid"', () => {
      const zip: ProfileField = { name: 'zip', type: 'string', validation: { pattern: '^\\d{5}$' } };
      assert.equal(fieldError(zip, '75001'), undefined);
      assert.equal(fieldError(zip, '7500'), 'format is invalid');
      assert.equal(fieldError({ ...zip, type: 'textarea' }, 'abcde'), 'format is invalid');
    });

    it('when a string has length bounds, then they are enforced in characters', () => {
      const nick: ProfileField = { name: 'nick', type: 'string', validation: { min: 2, max: 4 } };
      assert.equal(fieldError(nick, 'a'), 'must be at least 2 characters');
      assert.equal(fieldError(nick, 'abcde'), 'must be at most 4 characters');
      assert.equal(fieldError(nick, 'abcd'), undefined);
      // Characters as a person counts them: an emoji is one, though it is two UTF-16 units.
      assert.equal(fieldError(nick, '😀'), 'must be at least 2 characters');
      assert.equal(fieldError(nick, '😀😀😀'), undefined);
      assert.equal(fieldError(nick, '😀😀😀😀😀'), 'must be at most 4 characters');
    });

    it('when a number field gets a finite number, then it is stored', () => {
      assert.deepEqual(valueOf(validateProfileData(defOf({ name: 'age', type: 'number' }), { age: 42.5 })), { age: 42.5 });
    });

    it('when a number field gets a non-number, numeric string or non-finite value, then "must be a number"', () => {
      for (const value of ['5', '', true, [1], NaN, Infinity, -Infinity, { n: 1 }]) {
        assert.equal(fieldError({ name: 'age', type: 'number' }, value), value === '' ? undefined : 'must be a number');
      }
    });

    it('when a number is outside min/max, then "must be at least <min>" / "must be at most <max>"', () => {
      const age: ProfileField = { name: 'age', type: 'number', validation: { min: 18, max: 99 } };
      assert.equal(fieldError(age, 17), 'must be at least 18');
      assert.equal(fieldError(age, 100), 'must be at most 99');
      assert.equal(fieldError(age, 18), undefined, 'min is inclusive');
      assert.equal(fieldError(age, 99), undefined, 'max is inclusive');
      assert.equal(fieldError({ name: 't', type: 'number', validation: { min: -1.5 } }, -2), 'must be at least -1.5');
    });

    it('when a boolean field gets anything but true or false, then "must be true or false"', () => {
      const flag: ProfileField = { name: 'newsletter', type: 'boolean' };
      assert.equal(fieldError(flag, true), undefined);
      assert.equal(fieldError(flag, false), undefined);
      for (const value of ['true', 1, 0, 'on', []]) assert.equal(fieldError(flag, value), 'must be true or false');
    });

    it('when a select or radio value is not an option, then the message lists the options', () => {
      for (const type of ['select', 'radio'] as const) {
        const field: ProfileField = { name: 'plan', type, options: ['free', 'pro'] };
        assert.equal(fieldError(field, 'pro'), undefined);
        for (const value of ['gold', 'Free', 1, ['free']]) assert.equal(fieldError(field, value), 'must be one of: free, pro');
      }
    });

    it('when a multiselect gets an array of options, then it is stored without duplicates', () => {
      const tags: ProfileField = { name: 'tags', type: 'multiselect', options: ['a', 'b', 'c'] };
      assert.deepEqual(valueOf(validateProfileData(defOf(tags), { tags: ['c', 'a', 'c'] })), { tags: ['c', 'a'] });
    });

    it('when a multiselect gets a non-array or an unknown choice, then the message lists the options', () => {
      const tags: ProfileField = { name: 'tags', type: 'multiselect', options: ['a', 'b'] };
      for (const value of ['a', ['a', 'z'], [1], { 0: 'a' }]) assert.equal(fieldError(tags, value), 'must be one of: a, b');
    });

    it('when a json field gets any JSON value, then it is stored as a detached copy', () => {
      const json: ProfileField = { name: 'prefs', type: 'json' };
      for (const value of [{ a: [1, { b: null }] }, [1, 2], 'text', 3, true]) {
        assert.deepEqual(valueOf(validateProfileData(defOf(json), { prefs: value })), { prefs: value });
      }
      const input = { nested: { x: 1 } };
      const stored = valueOf(validateProfileData(defOf(json), { prefs: input })).prefs as typeof input;
      assert.notEqual(stored.nested, input.nested);
    });

    it('when a json value serializes to more than 64 KB, then "is too large"', () => {
      const json: ProfileField = { name: 'prefs', type: 'json' };
      assert.equal(fieldError(json, 'x'.repeat(MAX_JSON_BYTES - 2)), undefined, 'exactly 64 KB with quotes');
      assert.equal(fieldError(json, 'x'.repeat(MAX_JSON_BYTES - 1)), 'is too large');
      assert.equal(fieldError(json, { a: 'é'.repeat(MAX_JSON_BYTES / 2) }), 'is too large', 'measured in UTF-8 bytes');
    });

    it('when a json value is not serializable, then "must be a JSON value"', () => {
      const cyclic: Record<string, unknown> = {};
      cyclic.self = cyclic;
      assert.equal(fieldError({ name: 'prefs', type: 'json' }, cyclic), 'must be a JSON value');
      assert.equal(fieldError({ name: 'prefs', type: 'json' }, () => 1), 'must be a JSON value');
    });

    it('when an object field gets a non-object, then "must be an object"', () => {
      for (const value of ['x', 5, true, ['a'], new Date()]) assert.equal(fieldError(ADDRESS, value), 'must be an object');
    });

    it('when an object field is valid, then it is stored with its known keys', () => {
      const value = valueOf(validateProfileData(defOf(ADDRESS), { address: { street: 'Main', zip: '75001', floor: 3 } }));
      assert.deepEqual(value, { address: { street: 'Main', zip: '75001', floor: 3 } });
    });

    it('when nested values are wrong, then errors are keyed parent.child', () => {
      const errors = errorsOf(validateProfileData(defOf(ADDRESS), { address: { zip: '1', floor: 500, extra: 1 } }));
      assert.deepEqual(errors, {
        'address.extra': 'unknown field',
        'address.street': 'Street is required',
        'address.zip': 'format is invalid',
        'address.floor': 'must be at most 200',
      });
    });

    it('when objects nest twice, then errors carry the full dotted path', () => {
      const def = defOf({
        name: 'a',
        type: 'object',
        fields: [{ name: 'b', type: 'object', fields: [{ name: 'c', type: 'number' }] }],
      });
      assert.deepEqual(errorsOf(validateProfileData(def, { a: { b: { c: 'x', d: 1 } } })), {
        'a.b.d': 'unknown field',
        'a.b.c': 'must be a number',
      });
    });
  });

  describe('required and missing values', () => {
    it('when a required field is undefined, null or empty, then "<label> is required"', () => {
      const def = defOf({ ...PLAN, required: true });
      for (const data of [{}, { plan: undefined }, { plan: null }, { plan: '' }]) {
        assert.deepEqual(errorsOf(validateProfileData(def, data)), { plan: 'Plan is required' });
      }
    });

    it('when a required field has no label, then the message uses its name', () => {
      assert.equal(fieldError({ name: 'nickname', type: 'string', required: true }, null), 'nickname is required');
    });

    it('when a required multiselect is empty, then it is required', () => {
      const tags: ProfileField = { name: 'tags', label: 'Tags', type: 'multiselect', options: ['a'], required: true };
      assert.equal(fieldError(tags, []), 'Tags is required');
    });

    it('when a required boolean is false or a required number is 0, then they count as present', () => {
      assert.equal(fieldError({ name: 'b', type: 'boolean', required: true }, false), undefined);
      assert.equal(fieldError({ name: 'n', type: 'number', required: true }, 0), undefined);
    });

    it('when an optional field is absent, then it is left out of the value', () => {
      assert.deepEqual(valueOf(validateProfileData(defOf(PLAN, ADDRESS), {})), {});
    });

    it('when an optional field is null, then null is kept (it clears the value)', () => {
      assert.deepEqual(valueOf(validateProfileData(defOf(PLAN, ADDRESS), { plan: null, address: null })), {
        plan: null,
        address: null,
      });
    });

    it('when an optional choice, number or boolean is "", then it is stored as null', () => {
      const def = defOf(PLAN, { name: 'age', type: 'number' }, { name: 'b', type: 'boolean' });
      assert.deepEqual(valueOf(validateProfileData(def, { plan: '', age: '', b: '' })), { plan: null, age: null, b: null });
    });

    it('when an optional patterned string is "", then it is kept and the pattern is not applied', () => {
      const zip: ProfileField = { name: 'zip', type: 'string', validation: { pattern: '^\\d{5}$', min: 5 } };
      assert.deepEqual(valueOf(validateProfileData(defOf(zip), { zip: '' })), { zip: '' });
    });
  });

  describe('unknown keys and hostile input', () => {
    it('when data has an unknown key, then "unknown field" is keyed by it', () => {
      assert.deepEqual(errorsOf(validateProfileData(defOf(PLAN), { plan: 'pro', colour: 'red' })), { colour: 'unknown field' });
    });

    it('when data is not an object, then the root error says "must be an object"', () => {
      for (const data of [null, undefined, 'x', 5, ['plan'], new Map()]) {
        assert.deepEqual(errorsOf(validateProfileData(defOf(PLAN), data)), { [ROOT_ERROR_KEY]: 'must be an object' });
      }
    });

    it('when JSON carries __proto__ and constructor keys, then they are unknown fields and nothing is polluted', () => {
      const data: unknown = JSON.parse('{"plan":"pro","__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}');
      const errors = errorsOf(validateProfileData(defOf(PLAN, ADDRESS), data));
      assert.deepEqual(Object.keys(errors).sort(), ['__proto__', 'constructor']);
      assert.equal(errors['__proto__'], 'unknown field');
      assert.equal(errors.constructor, 'unknown field');
      assert.equal(Object.getPrototypeOf(errors), Object.prototype, 'errors keep the normal prototype');
      assert.equal(JSON.parse(JSON.stringify(errors))['__proto__'], 'unknown field', 'the key survives serialization');
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
      assert.equal((Object.prototype as Record<string, unknown>).polluted, undefined);
    });

    it('when a nested object carries __proto__, then it is a parent.child unknown field', () => {
      const data: unknown = JSON.parse('{"address":{"street":"x","__proto__":{"polluted":true}}}');
      assert.deepEqual(errorsOf(validateProfileData(defOf(ADDRESS), data)), { 'address.__proto__': 'unknown field' });
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
    });

    it('when validation succeeds, then the value is a fresh plain object holding known keys only', () => {
      const data = { plan: 'pro', address: { street: 'Main' } };
      const value = valueOf(validateProfileData(defOf(PLAN, ADDRESS), data));
      assert.equal(Object.getPrototypeOf(value), Object.prototype);
      assert.notEqual(value, data);
      assert.notEqual(value.address, data.address);
    });

    it('when data is a null-prototype object (querystring), then it is validated normally', () => {
      const data = Object.assign(Object.create(null) as Record<string, unknown>, { plan: 'free' });
      assert.deepEqual(valueOf(validateProfileData(defOf(PLAN), data)), { plan: 'free' });
    });

    it('when data inherits from a custom prototype, then it is not a plain object and inherited values are never read', () => {
      const data = Object.create({ plan: 'pro' }) as Record<string, unknown>;
      assert.deepEqual(errorsOf(validateProfileData(defOf(PLAN), data)), { [ROOT_ERROR_KEY]: 'must be an object' });
    });

    it('when a 1 MB string is sent, then it is refused quickly without running the pattern', function () {
      this.timeout(1000);
      const field: ProfileField = { name: 'bio2', type: 'string', validation: { pattern: '^(a+)+$' } };
      assert.equal(fieldError(field, 'a'.repeat(1024 * 1024)), 'must be at most 10000 characters');
      assert.equal(fieldError({ name: 'prefs', type: 'json' }, 'a'.repeat(1024 * 1024)), 'is too large');
    });

    it('when a catastrophic pattern meets 20000 hostile characters, then it answers quickly', function () {
      this.timeout(1000);
      const field: ProfileField = { name: 'code', type: 'string', validation: { pattern: '^(a+)+$' } };
      assert.equal(fieldError(field, `${'a'.repeat(20000)}!`), 'must be at most 10000 characters');
    });

    it('when a catastrophic pattern meets a short hostile string under the cap, then the time budget stops it', function () {
      this.timeout(1000);
      const field: ProfileField = { name: 'code', type: 'string', validation: { pattern: '^(a+)+$' } };
      const started = Date.now();
      assert.equal(fieldError(field, `${'a'.repeat(40)}!`), 'format is invalid');
      assert.ok(Date.now() - started < 900);
      assert.equal(fieldError(field, 'aaaa'), undefined, 'the pattern still works for ordinary input');
    });

    it('when data nests deeply under an object or json field, then it errors quickly without throwing', function () {
      this.timeout(1000);
      let deep: unknown = {};
      for (let level = 0; level < 1_000_000; level++) deep = { a: deep };
      assert.deepEqual(errorsOf(validateProfileData(defOf(ADDRESS), { address: deep })), {
        'address.a': 'unknown field',
        'address.street': 'Street is required',
      });
      assert.equal(fieldError({ name: 'prefs', type: 'json' }, deep), 'is too large');
    });

    it('when data has many unknown keys, then each is reported and nothing throws', () => {
      const data: Record<string, unknown> = {};
      for (let i = 0; i < 5000; i++) data[`k${i}`] = i;
      assert.equal(Object.keys(errorsOf(validateProfileData(defOf(PLAN), data))).length, 5000);
    });
  });

  describe('only (registration)', () => {
    const def = defineUserProfile({
      fields: [
        { name: 'company_size', type: 'number', required: true },
        { name: 'plan', type: 'select', options: ['free', 'pro'], required: true },
        { name: 'internal_note', type: 'string' },
      ],
      registrationFields: ['company_size'],
    });

    it('when only lists some fields, then only those are validated', () => {
      assert.deepEqual(valueOf(validateProfileData(def, { company_size: 10 }, { only: def.registrationFields })), {
        company_size: 10,
      });
    });

    it('when a key outside only is sent, then it is an unknown field', () => {
      assert.deepEqual(errorsOf(validateProfileData(def, { company_size: 10, internal_note: 'x' }, { only: ['company_size'] })), {
        internal_note: 'unknown field',
      });
    });

    it('when a required field inside only is missing, then it is required', () => {
      assert.deepEqual(errorsOf(validateProfileData(def, {}, { only: ['company_size'] })), {
        company_size: 'company_size is required',
      });
    });
  });

  describe('validateFieldValue', () => {
    it('when a single value is checked, then it returns the clean value or its errors', () => {
      const [plan] = defOf(PLAN).fields;
      assert.deepEqual(validateFieldValue(plan, 'pro'), { ok: true, value: 'pro' });
      assert.deepEqual(validateFieldValue(plan, undefined), { ok: true, value: undefined });
      assert.deepEqual(validateFieldValue(plan, 'x'), { ok: false, errors: { plan: 'must be one of: free, pro' } });
    });
  });
});
