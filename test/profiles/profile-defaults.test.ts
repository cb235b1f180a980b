import assert from 'node:assert/strict';
import { applyDefaults, mergeProfileData } from '../../src/profiles/profile-defaults';
import { defineUserProfile } from '../../src/profiles/profile-definition';
import { validateProfileData } from '../../src/profiles/profile-values';
import { PLAN, defOf, errorsOf } from '../support/profiles';

describe('profile validator', () => {
  describe('applyDefaults', () => {
    const def = defineUserProfile({
      fields: [
        { name: 'plan', type: 'select', options: ['free', 'pro'], default: 'free' },
        { name: 'newsletter', type: 'boolean', default: false },
        { name: 'tags', type: 'multiselect', options: ['a', 'b'], default: ['a'] },
        { name: 'nick', type: 'string' },
        {
          name: 'address',
          type: 'object',
          default: { city: 'Paris' },
          fields: [
            { name: 'city', type: 'string' },
            { name: 'country', type: 'string', default: 'FR' },
          ],
        },
        { name: 'billing', type: 'object', fields: [{ name: 'currency', type: 'string', default: 'EUR' }] },
      ],
    });

    it('when data is empty, then every default is applied, nested ones included', () => {
      assert.deepEqual(applyDefaults(def, {}), {
        plan: 'free',
        newsletter: false,
        tags: ['a'],
        address: { city: 'Paris', country: 'FR' },
      });
    });

    it('when values exist, including null and false, then they are kept', () => {
      const data = { plan: 'pro', newsletter: true, tags: null, nick: 'x' };
      assert.deepEqual(applyDefaults(def, data), {
        plan: 'pro',
        newsletter: true,
        tags: null,
        nick: 'x',
        address: { city: 'Paris', country: 'FR' },
      });
    });

    it('when a present object lacks a nested value, then the nested default fills it', () => {
      const result = applyDefaults(def, { address: { city: 'Lyon' }, billing: {} });
      assert.deepEqual(result.address, { city: 'Lyon', country: 'FR' });
      assert.deepEqual(result.billing, { currency: 'EUR' });
    });

    it('when an optional object without default is absent, then it stays absent', () => {
      assert.ok(!('billing' in applyDefaults(def, {})));
    });

    it('when defaults are applied, then the input is untouched and the result is independently mutable', () => {
      const input = { address: { city: 'Lyon' } };
      const first = applyDefaults(def, input);
      assert.deepEqual(input, { address: { city: 'Lyon' } });
      (first.tags as string[]).push('b');
      assert.deepEqual(applyDefaults(def, {}).tags, ['a'], 'the definition default is not shared');
    });

    it('when data has unknown keys, then they are copied for validation to judge, without pollution', () => {
      const result = applyDefaults(def, JSON.parse('{"other":1,"__proto__":{"polluted":true}}'));
      assert.equal(result.other, 1);
      assert.ok(Object.prototype.hasOwnProperty.call(result, '__proto__'));
      assert.equal(Object.getPrototypeOf(result), Object.prototype);
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
    });

    it('when data is not an object, then defaults start from an empty object', () => {
      assert.equal(applyDefaults(def, null).plan, 'free');
      assert.equal(applyDefaults(def, 'x').plan, 'free');
    });

    it('when defaults are applied, then the result passes validation', () => {
      assert.ok(validateProfileData(def, applyDefaults(def, {})).ok);
    });
  });

  describe('mergeProfileData', () => {
    it('when a patch is merged, then top-level patch keys win and others are kept', () => {
      assert.deepEqual(mergeProfileData({ a: 1, b: 2 }, { b: 3, c: 4 }), { a: 1, b: 3, c: 4 });
    });

    it('when a patch holds an object, then it replaces the stored object wholesale (shallow)', () => {
      assert.deepEqual(mergeProfileData({ address: { city: 'X', zip: '1' } }, { address: { city: 'Y' } }), {
        address: { city: 'Y' },
      });
    });

    it('when a patch holds null, then the stored value is replaced by null', () => {
      assert.deepEqual(mergeProfileData({ a: 1 }, { a: null }), { a: null });
    });

    it('when merged, then neither input is mutated', () => {
      const stored = { a: 1 };
      const patch = { b: 2 };
      const merged = mergeProfileData(stored, patch);
      assert.deepEqual(stored, { a: 1 });
      assert.deepEqual(patch, { b: 2 });
      assert.notEqual(merged, stored);
    });

    it('when either side is not an object, then it counts as empty', () => {
      assert.deepEqual(mergeProfileData(null, { a: 1 }), { a: 1 });
      assert.deepEqual(mergeProfileData({ a: 1 }, 'x'), { a: 1 });
    });

    it('when the patch carries __proto__, then it stays an own key, pollutes nothing and fails validation', () => {
      const merged = mergeProfileData({ plan: 'free' }, JSON.parse('{"__proto__":{"isAdmin":true}}'));
      assert.equal(Object.getPrototypeOf(merged), Object.prototype);
      assert.equal((merged as Record<string, unknown>).isAdmin, undefined);
      const errors = errorsOf(validateProfileData(defOf(PLAN), merged));
      assert.deepEqual(Object.keys(errors), ['__proto__']);
      assert.equal(errors['__proto__'], 'unknown field');
      assert.equal(({} as Record<string, unknown>).isAdmin, undefined);
    });
  });
});
