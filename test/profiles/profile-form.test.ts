import assert from 'node:assert/strict';
import querystring from 'node:querystring';
import { defineUserProfile } from '../../src/profiles/profile-definition';
import { coerceFormValues } from '../../src/profiles/profile-form';
import { validateProfileData } from '../../src/profiles/profile-values';
import { errorsOf } from '../support/profiles';

describe('profile validator', () => {
  describe('coerceFormValues', () => {
    const def = defineUserProfile({
      fields: [
        { name: 'age', type: 'number' },
        { name: 'newsletter', type: 'boolean' },
        { name: 'tags', type: 'multiselect', options: ['a', 'b'] },
        { name: 'plan', type: 'select', options: ['free', 'pro'] },
        { name: 'nick', type: 'string' },
        { name: 'prefs', type: 'json' },
        { name: 'address', type: 'object', fields: [{ name: 'city', type: 'string' }, { name: 'floor', type: 'number' }] },
      ],
      registrationFields: ['age', 'newsletter', 'tags', 'plan'],
    });
    const ALL = def.fields.map((field) => field.name);

    it('when number fields get numeric strings, then they become numbers', () => {
      for (const [input, expected] of [['42', 42], [' -3.5 ', -3.5], ['1e3', 1000], ['.5', 0.5]] as const) {
        assert.equal(coerceFormValues(def, ['age'], { age: input }).age, expected);
      }
    });

    it('when a number field is empty, then it is absent', () => {
      assert.deepEqual(coerceFormValues(def, ['age'], { age: '' }), {});
      assert.deepEqual(coerceFormValues(def, ['age'], { age: '   ' }), {});
    });

    it('when a number field is not numeric, then the string is kept and validation reports it', () => {
      const values = coerceFormValues(def, ['age'], { age: '12abc' });
      assert.equal(values.age, '12abc');
      assert.deepEqual(errorsOf(validateProfileData(def, values)), { age: 'must be a number' });
      assert.equal(coerceFormValues(def, ['age'], { age: '0x10' }).age, '0x10');
      assert.equal(coerceFormValues(def, ['age'], { age: '1'.repeat(100_000) + 'x' }).age, '1'.repeat(100_000) + 'x');
    });

    it('when a checkbox is on, true or 1, then it is true; when absent or off, then false', () => {
      for (const input of ['on', 'true', '1', ['false', 'on']]) {
        assert.equal(coerceFormValues(def, ['newsletter'], { newsletter: input }).newsletter, true);
      }
      for (const input of [undefined, 'off', 'false', '0', '']) {
        assert.equal(coerceFormValues(def, ['newsletter'], { newsletter: input }).newsletter, false);
      }
      assert.equal(coerceFormValues(def, ['newsletter'], {}).newsletter, false);
      assert.equal(coerceFormValues(def, ['newsletter'], { newsletter: 'maybe' }).newsletter, 'maybe');
    });

    it('when a multiselect gets a string or string[], then it becomes string[]', () => {
      assert.deepEqual(coerceFormValues(def, ['tags'], { tags: 'a' }).tags, ['a']);
      assert.deepEqual(coerceFormValues(def, ['tags'], { tags: ['a', 'b'] }).tags, ['a', 'b']);
      assert.deepEqual(coerceFormValues(def, ['tags'], {}).tags, []);
    });

    it('when select and string fields are posted, then they stay strings; empty ones are absent', () => {
      assert.deepEqual(coerceFormValues(def, ['plan', 'nick'], { plan: 'pro', nick: 'Ann' }), { plan: 'pro', nick: 'Ann' });
      assert.deepEqual(coerceFormValues(def, ['plan', 'nick'], { plan: '', nick: '' }), {});
    });

    it('when a json field holds JSON text, then it is parsed; otherwise kept as a string', () => {
      assert.deepEqual(coerceFormValues(def, ['prefs'], { prefs: '{"a":1}' }).prefs, { a: 1 });
      assert.equal(coerceFormValues(def, ['prefs'], { prefs: 'hello' }).prefs, 'hello');
    });

    it('when object fields are posted as parent.child keys, then they are gathered and typed', () => {
      assert.deepEqual(coerceFormValues(def, ['address'], { 'address.city': 'Lyon', 'address.floor': '2' }), {
        address: { city: 'Lyon', floor: 2 },
      });
      assert.deepEqual(coerceFormValues(def, ['address'], {}), {});
    });

    it('when the form has other keys, then only the listed fields are returned', () => {
      const values = coerceFormValues(def, def.registrationFields, {
        email: 'a@b.c',
        password: 'secret',
        nick: 'not listed',
        age: '30',
        plan: 'free',
      });
      assert.deepEqual(values, { age: 30, newsletter: false, tags: [], plan: 'free' });
    });

    it('when the body comes from the urlencoded parser (null prototype), then it is read normally', () => {
      const body = querystring.parse('age=7&newsletter=on&tags=a&tags=b&plan=pro&__proto__=x&constructor=y');
      const values = coerceFormValues(def, def.registrationFields, body);
      assert.deepEqual(values, { age: 7, newsletter: true, tags: ['a', 'b'], plan: 'pro' });
      assert.ok(validateProfileData(def, values, { only: def.registrationFields }).ok);
    });

    it('when the body is not an object, then checkbox-type fields get their empty values', () => {
      assert.deepEqual(coerceFormValues(def, ALL, undefined), { newsletter: false, tags: [] });
    });
  });
});
