import assert from 'node:assert/strict';
import {
  defineUserProfile,
  registrationFieldDefinitions,
  validateAuthConfig,
  validateProfileDefinition,
} from '../../src/profiles/profile-definition';
import { MAX_NESTING_DEPTH } from '../../src/profiles/profile-field-rules';
import {
  BUILT_IN_PROFILE_FIELDS,
  EMPTY_PROFILE_DEFINITION,
  ProfileDefinitionError,
  USER_FIELD_NAMES,
  type ProfileField,
} from '../../src/profiles/profile-types';

/** Asserts the definition is refused with a ProfileDefinitionError whose message contains each part. */
function assertRejected(def: unknown, ...parts: string[]): ProfileDefinitionError {
  let caught: unknown;
  try {
    validateProfileDefinition(def);
  } catch (err) {
    caught = err;
  }
  assert.ok(caught instanceof ProfileDefinitionError, `expected a ProfileDefinitionError, got ${String(caught)}`);
  assert.match(caught.message, /^Invalid user profile definition: /);
  for (const part of parts) assert.ok(caught.message.includes(part), `"${caught.message}" should include ${part}`);
  return caught;
}

/** A definition with one field, the usual shape of the broken-definition cases. */
function oneField(field: Record<string, unknown>): unknown {
  return { fields: [field] };
}

describe('profile definition', () => {
  describe('normalization', () => {
    it('when a minimal field is given, then label defaults to the name and flags to false', () => {
      const def = validateProfileDefinition(oneField({ name: 'nickname', type: 'string' }));
      assert.deepEqual(def, {
        fields: [{ name: 'nickname', label: 'nickname', type: 'string', required: false, hidden: false }],
        registrationFields: [],
      });
    });

    it('when every property is given, then they are kept as given', () => {
      const def = validateProfileDefinition({
        fields: [
          {
            name: 'plan',
            label: 'Plan',
            type: 'select',
            options: ['free', 'pro'],
            default: 'free',
            required: true,
            hidden: true,
          },
          { name: 'age', type: 'number', validation: { min: 0, max: 150 } },
        ],
        registrationFields: ['plan'],
      });
      assert.deepEqual(def.fields[0], {
        name: 'plan',
        label: 'Plan',
        type: 'select',
        required: true,
        hidden: true,
        options: ['free', 'pro'],
        default: 'free',
      });
      assert.deepEqual(def.fields[1].validation, { min: 0, max: 150 });
      assert.deepEqual(def.registrationFields, ['plan']);
    });

    it('when every field type is declared, then each is accepted', () => {
      const def = validateProfileDefinition({
        fields: [
          { name: 's', type: 'string' },
          { name: 'n', type: 'number' },
          { name: 'b', type: 'boolean' },
          { name: 'sel', type: 'select', options: ['a'] },
          { name: 'multi', type: 'multiselect', options: ['a', 'b'] },
          { name: 'r', type: 'radio', options: ['x', 'y'] },
          { name: 't', type: 'textarea' },
          { name: 'j', type: 'json' },
          { name: 'o', type: 'object', fields: [{ name: 'inner', type: 'string' }] },
        ],
      });
      assert.deepEqual(
        def.fields.map((field) => field.type),
        ['string', 'number', 'boolean', 'select', 'multiselect', 'radio', 'textarea', 'json', 'object'],
      );
    });

    it('when the definition is normalized, then it is deeply frozen and the input is not', () => {
      const address = { city: 'Paris' };
      const input = {
        fields: [
          { name: 'address', type: 'object', default: address, fields: [{ name: 'city', type: 'string' }] },
          { name: 'tags', type: 'multiselect', options: ['a', 'b'], default: ['a'] },
        ],
      };
      const def = validateProfileDefinition(input);
      assert.ok(Object.isFrozen(def));
      assert.ok(Object.isFrozen(def.fields));
      assert.ok(Object.isFrozen(def.fields[0]));
      assert.ok(Object.isFrozen(def.fields[0].fields));
      assert.ok(Object.isFrozen(def.fields[0].default));
      assert.ok(Object.isFrozen(def.fields[1].options));
      assert.ok(Object.isFrozen(def.registrationFields));
      assert.ok(!Object.isFrozen(address), 'the operator object must stay untouched');
      assert.ok(!Object.isFrozen(input.fields));
      assert.notEqual(def.fields[0].default, address);
    });

    it('when a normalized definition is validated again, then the result is identical (idempotent)', () => {
      const def = defineUserProfile({
        fields: [
          { name: 'plan', type: 'radio', options: ['a', 'b'], default: 'a', required: true },
          { name: 'address', type: 'object', fields: [{ name: 'zip', type: 'string', validation: { pattern: '^\\d+$' } }] },
        ],
        registrationFields: ['plan'],
      });
      assert.deepEqual(validateProfileDefinition(def), def);
    });

    it('when the definition is serialized, then it round-trips through JSON (schema endpoint)', () => {
      const def = defineUserProfile({
        fields: [{ name: 'bioExtra', type: 'textarea', hidden: true, validation: { max: 20 } }],
      });
      assert.deepEqual(JSON.parse(JSON.stringify(def)), def);
    });

    it('when defineUserProfile is called, then it returns the same as validateProfileDefinition', () => {
      const input = { fields: [{ name: 'nickname', type: 'string' as const }] };
      assert.deepEqual(defineUserProfile(input), validateProfileDefinition(input));
    });

    it('when an object default lacks a required child that has its own default, then it is filled in', () => {
      const def = validateProfileDefinition(
        oneField({
          name: 'address',
          type: 'object',
          default: {},
          fields: [
            { name: 'country', type: 'string', required: true, default: 'FR' },
            { name: 'city', type: 'string' },
          ],
        }),
      );
      assert.deepEqual(def.fields[0].default, { country: 'FR' });
    });

    it('when a nested field uses a user field name, then it is accepted (it lives inside its parent)', () => {
      const def = validateProfileDefinition(
        oneField({ name: 'emergency', type: 'object', fields: [{ name: 'email', type: 'string' }] }),
      );
      assert.equal(def.fields[0].fields?.[0].name, 'email');
    });

    it('when the field list is empty, then the definition is valid', () => {
      assert.deepEqual(validateProfileDefinition({ fields: [] }), EMPTY_PROFILE_DEFINITION);
    });
  });

  describe('broken definitions', () => {
    it('when the definition is not an object, then it is refused', () => {
      for (const def of [null, undefined, 'fields', 42, [], [{ name: 'a', type: 'string' }]]) {
        assertRejected(def, 'must be an object');
      }
    });

    it('when "fields" is missing or not an array, then it is refused', () => {
      assertRejected({}, '"fields" must be an array');
      assertRejected({ fields: { name: 'a' } }, '"fields" must be an array');
    });

    it('when the definition has an unknown property, then it is refused', () => {
      assertRejected({ fields: [], registrationField: [] }, 'unknown property "registrationField"');
    });

    it('when a hidden field is required without a default, then it is refused (no form could ever be saved); with a default it is accepted', () => {
      assertRejected(oneField({ name: 'secret_flag', type: 'string', hidden: true, required: true }), 'field "secret_flag"', 'hidden required field needs a "default"');
      const ok = validateProfileDefinition(oneField({ name: 'secret_flag', type: 'string', hidden: true, required: true, default: 'x' }) as never);
      assert.equal(ok.fields[0].default, 'x');
    });

    it('when a field is not an object, then the message names its index', () => {
      assertRejected({ fields: [{ name: 'a', type: 'string' }, 'b'] }, 'fields[1]', 'must be an object');
    });

    it('when a field has no name, then the message names its index', () => {
      assertRejected({ fields: [{ type: 'string' }] }, 'fields[0]', '"name" is required');
    });

    it('when a name is not an identifier, then it is refused', () => {
      for (const name of ['', '1abc', 'a-b', 'with space', 'a.b', 'é', 42]) {
        assertRejected(oneField({ name, type: 'string' }), 'fields[0]', 'is invalid');
      }
    });

    it('when a name reaches the object prototype, then it is refused as reserved', () => {
      for (const name of ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf']) {
        assertRejected(oneField({ name, type: 'string' }), `field "${name}"`, 'reserved');
      }
    });

    it('when a nested name reaches the object prototype, then it is refused with the dotted path', () => {
      assertRejected(
        oneField({ name: 'address', type: 'object', fields: [{ name: '__proto__', type: 'string' }] }),
        'field "address.__proto__"',
        'reserved',
      );
    });

    it('when two fields share a name, then it is refused', () => {
      assertRejected(
        {
          fields: [
            { name: 'plan', type: 'string' },
            { name: 'plan', type: 'number' },
          ],
        },
        'field "plan"',
        'duplicate',
      );
    });

    it('when two nested fields share a name, then it is refused with the dotted path', () => {
      assertRejected(
        oneField({
          name: 'address',
          type: 'object',
          fields: [
            { name: 'city', type: 'string' },
            { name: 'city', type: 'string' },
          ],
        }),
        'field "address.city"',
        'duplicate',
      );
    });

    it('when a custom field reuses a built-in profile field name, then it is refused', () => {
      for (const { name } of BUILT_IN_PROFILE_FIELDS) {
        assertRejected(oneField({ name, type: 'string' }), `field "${name}"`, 'built-in profile field');
      }
    });

    it('when a custom field reuses a user field name, then it is refused', () => {
      for (const name of ['email', 'password', 'username', 'firstName', 'lastName', 'role', 'id', 'active']) {
        assertRejected(oneField({ name, type: 'string' }), `field "${name}"`, 'user field');
      }
    });

    it('when the type is missing or unknown, then it is refused with the list of types', () => {
      assertRejected(oneField({ name: 'a' }), 'field "a"', '"type" is required');
      assertRejected(oneField({ name: 'a', type: 'strng' }), 'field "a"', 'unknown type "strng"', 'string, number');
      assertRejected(oneField({ name: 'a', type: 'integer' }), 'field "a"', 'unknown type');
    });

    it('when a choice field has no options, then it is refused', () => {
      for (const type of ['select', 'multiselect', 'radio']) {
        assertRejected(oneField({ name: 'plan', type }), `field "plan": ${type} needs a non-empty "options" list`);
        assertRejected(oneField({ name: 'plan', type, options: [] }), `${type} needs a non-empty "options" list`);
        assertRejected(oneField({ name: 'plan', type, options: 'a,b' }), `${type} needs a non-empty "options" list`);
      }
    });

    it('when the example from the brief is given, then the message matches it exactly', () => {
      const err = assertRejected(oneField({ name: 'plan', type: 'select' }));
      assert.equal(err.message, 'Invalid user profile definition: field "plan": select needs a non-empty "options" list');
      assert.equal(err.path, 'field "plan"');
    });

    it('when options are not all non-empty strings or repeat, then it is refused', () => {
      assertRejected(oneField({ name: 'plan', type: 'select', options: ['a', 1] }), 'field "plan"', 'non-empty strings');
      assertRejected(oneField({ name: 'plan', type: 'select', options: ['a', ''] }), 'field "plan"', 'non-empty strings');
      assertRejected(oneField({ name: 'plan', type: 'select', options: ['a', 'a'] }), 'field "plan"', 'duplicates');
    });

    it('when options are given to a non-choice field, then it is refused', () => {
      assertRejected(oneField({ name: 'a', type: 'string', options: ['x'] }), 'field "a"', '"options" applies only');
    });

    it('when the default fails the field rules, then it is refused', () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ type: 'select', options: ['free', 'pro'], default: 'gold' }, 'must be one of: free, pro'],
        [{ type: 'radio', options: ['x'], default: 1 }, 'must be one of: x'],
        [{ type: 'multiselect', options: ['a'], default: 'a' }, 'must be one of: a'],
        [{ type: 'number', validation: { max: 10 }, default: 11 }, 'must be at most 10'],
        [{ type: 'number', default: '5' }, 'must be a number'],
        [{ type: 'boolean', default: 'yes' }, 'must be true or false'],
        [{ type: 'string', validation: { pattern: '^\\d+$' }, default: 'abc' }, 'format is invalid'],
        [{ type: 'string', default: 5 }, 'must be a string'],
        [{ type: 'string', required: true, default: '' }, 'a is required'],
        [{ type: 'object', fields: [{ name: 'x', type: 'string' }], default: [] }, 'must be an object'],
        [{ type: 'json', default: 10n }, 'must be a JSON value'],
      ];
      for (const [field, message] of cases) {
        assertRejected(oneField({ name: 'a', ...field }), 'field "a"', '"default" is invalid', message);
      }
    });

    it('when a nested object default is wrong inside, then the message names the nested path', () => {
      assertRejected(
        oneField({
          name: 'address',
          type: 'object',
          fields: [{ name: 'zip', type: 'number' }],
          default: { zip: 'x', extra: 1 },
        }),
        'field "address"',
        'address.',
      );
    });

    it('when a nested field default is wrong, then the message names the dotted path', () => {
      assertRejected(
        oneField({ name: 'o', type: 'object', fields: [{ name: 'x', type: 'number', default: '1' }] }),
        'field "o.x"',
        'must be a number',
      );
    });

    it('when the pattern is not a valid regular expression, then it is refused', () => {
      assertRejected(oneField({ name: 'zip', type: 'string', validation: { pattern: '(' } }), 'field "zip"', 'regular expression');
      assertRejected(oneField({ name: 'zip', type: 'string', validation: { pattern: '[a-' } }), 'field "zip"', 'regular expression');
      assertRejected(oneField({ name: 'zip', type: 'string', validation: { pattern: 5 } }), 'field "zip"', 'must be a string');
    });

    it('when min is greater than max, then it is refused', () => {
      assertRejected(oneField({ name: 'age', type: 'number', validation: { min: 5, max: 1 } }), 'field "age"', 'greater than');
      assertRejected(oneField({ name: 'nick', type: 'string', validation: { min: 5, max: 1 } }), 'field "nick"', 'greater than');
    });

    it('when min or max is not a finite number, then it is refused', () => {
      assertRejected(oneField({ name: 'age', type: 'number', validation: { min: '1' } }), 'field "age"', 'finite number');
      assertRejected(oneField({ name: 'age', type: 'number', validation: { max: Infinity } }), 'field "age"', 'finite number');
      assertRejected(oneField({ name: 'nick', type: 'string', validation: { max: 2.5 } }), 'field "nick"', 'whole number');
    });

    it('when a validation rule does not apply to the type, then it is refused', () => {
      assertRejected(oneField({ name: 'b', type: 'boolean', validation: { min: 1 } }), 'field "b"', 'validation.min applies only');
      assertRejected(oneField({ name: 'n', type: 'number', validation: { pattern: '^1$' } }), 'field "n"', 'validation.pattern applies only');
    });

    it('when validation is not an object or has an unknown rule, then it is refused', () => {
      assertRejected(oneField({ name: 'n', type: 'number', validation: 5 }), 'field "n"', '"validation" must be an object');
      assertRejected(oneField({ name: 'n', type: 'number', validation: { minimum: 1 } }), 'field "n"', 'unknown property "validation.minimum"');
    });

    it('when an object field has no nested fields, then it is refused', () => {
      assertRejected(oneField({ name: 'address', type: 'object' }), 'field "address"', 'object needs a non-empty "fields" list');
      assertRejected(oneField({ name: 'address', type: 'object', fields: [] }), 'field "address"', 'non-empty "fields"');
    });

    it('when nested fields are given to a non-object field, then it is refused', () => {
      assertRejected(oneField({ name: 'a', type: 'json', fields: [{ name: 'b', type: 'string' }] }), 'field "a"', '"fields" applies only');
    });

    it('when a nested field is broken, then the message names the dotted path or parent and index', () => {
      assertRejected(
        oneField({ name: 'address', type: 'object', fields: [{ name: 'kind', type: 'select' }] }),
        'field "address.kind"',
        'select needs a non-empty "options" list',
      );
      assertRejected(
        oneField({ name: 'address', type: 'object', fields: [{ type: 'string' }] }),
        'field "address" fields[0]',
        '"name" is required',
      );
    });

    it('when objects nest too deeply, then it is refused', () => {
      let field: ProfileField = { name: 'leaf', type: 'string' };
      for (let level = 0; level <= MAX_NESTING_DEPTH; level++) field = { name: `o${level}`, type: 'object', fields: [field] };
      assertRejected({ fields: [field] }, 'nest at most');
    });

    it('when a programmatic definition references itself, then it is refused instead of looping', () => {
      const field: Record<string, unknown> = { name: 'loop', type: 'object' };
      field.fields = [field];
      assertRejected({ fields: [field] }, 'nest at most');
    });

    it('when a field has an unknown property (typo), then it is refused', () => {
      assertRejected(oneField({ name: 'a', type: 'string', requried: true }), 'field "a"', 'unknown property "requried"');
      assertRejected(oneField({ name: 'a', type: 'string', description: 'x' }), 'field "a"', 'unknown property "description"');
    });

    it('when label, required or hidden have the wrong type, then it is refused', () => {
      assertRejected(oneField({ name: 'a', type: 'string', label: 5 }), 'field "a"', '"label" must be a non-empty string');
      assertRejected(oneField({ name: 'a', type: 'string', label: ' ' }), 'field "a"', '"label"');
      assertRejected(oneField({ name: 'a', type: 'string', required: 'yes' }), 'field "a"', '"required" must be true or false');
      assertRejected(oneField({ name: 'a', type: 'string', hidden: 1 }), 'field "a"', '"hidden" must be true or false');
    });

    it('when registrationFields names no top-level field, then it is refused', () => {
      const fields = [
        { name: 'plan', type: 'string' },
        { name: 'address', type: 'object', fields: [{ name: 'city', type: 'string' }] },
      ];
      assertRejected({ fields, registrationFields: ['nope'] }, 'registrationFields[0]', '"nope" names no top-level field');
      assertRejected({ fields, registrationFields: ['plan', 'city'] }, 'registrationFields[1]', 'names no top-level field');
      assertRejected({ fields, registrationFields: ['address.city'] }, 'registrationFields[0]');
      assertRejected({ fields, registrationFields: [1] }, 'registrationFields[0]');
    });

    it('when registrationFields is not an array or repeats a name, then it is refused', () => {
      const fields = [{ name: 'plan', type: 'string' }];
      assertRejected({ fields, registrationFields: 'plan' }, '"registrationFields" must be an array');
      assertRejected({ fields, registrationFields: ['plan', 'plan'] }, 'registrationFields[1]', 'twice');
    });

    it('when defineUserProfile gets a broken definition, then it throws ProfileDefinitionError too', () => {
      assert.throws(
        () => defineUserProfile({ fields: [{ name: 'plan', type: 'select' }] }),
        (err: unknown) => err instanceof ProfileDefinitionError && err instanceof Error && err.name === 'ProfileDefinitionError',
      );
    });
  });

  describe('built-in and reserved names', () => {
    it('when the built-in list is read, then it matches SPEC 2.3 with date_of_birth as an integer', () => {
      assert.deepEqual(
        BUILT_IN_PROFILE_FIELDS.map(({ name, type }) => [name, type]),
        [
          ['display_name', 'string'],
          ['bio', 'string'],
          ['company', 'string'],
          ['job_title', 'string'],
          ['website', 'string'],
          ['location', 'string'],
          ['date_of_birth', 'integer'],
        ],
      );
      assert.ok(Object.isFrozen(BUILT_IN_PROFILE_FIELDS));
    });

    it('when the user field list is read, then it holds the standard user fields', () => {
      for (const name of ['email', 'password', 'username', 'firstName', 'lastName', 'role', 'id', 'active']) {
        assert.ok(USER_FIELD_NAMES.includes(name), name);
      }
    });
  });

  describe('auth config', () => {
    const userProfile = { fields: [{ name: 'plan', type: 'string' }], registrationFields: ['plan'] };

    it('when the config has a userProfile, then it is normalized', () => {
      const config = validateAuthConfig({ userProfile });
      assert.deepEqual(config.userProfile, validateProfileDefinition(userProfile));
    });

    it('when the config is an ES module with a default export, then the default is used', () => {
      const config = validateAuthConfig({ __esModule: true, default: { userProfile } });
      assert.equal(config.userProfile.fields[0].name, 'plan');
    });

    it('when the config has no userProfile, then there are no custom fields', () => {
      assert.deepEqual(validateAuthConfig({}).userProfile, EMPTY_PROFILE_DEFINITION);
    });

    it('when the config is not an object or has a misspelt key, then it is refused', () => {
      assert.throws(() => validateAuthConfig(null), /^ProfileDefinitionError: Invalid auth config: must export an object/);
      assert.throws(() => validateAuthConfig({ userProfiles: userProfile }), /Invalid auth config: unknown property "userProfiles"/);
    });

    it('when the userProfile inside the config is broken, then the field is named', () => {
      assert.throws(
        () => validateAuthConfig({ userProfile: { fields: [{ name: 'email', type: 'string' }] } }),
        (err: unknown) => err instanceof ProfileDefinitionError && err.message.includes('field "email"'),
      );
    });
  });

  describe('registrationFieldDefinitions', () => {
    it('when asked, then it returns the registration fields in registrationFields order', () => {
      const def = defineUserProfile({
        fields: [
          { name: 'a', type: 'string' },
          { name: 'b', type: 'number' },
          { name: 'c', type: 'boolean' },
        ],
        registrationFields: ['c', 'a'],
      });
      assert.deepEqual(
        registrationFieldDefinitions(def).map((field) => field.name),
        ['c', 'a'],
      );
    });
  });
});
