import assert from 'node:assert/strict';
import { email } from '../../src/schemas/input-rules';
import { emailAddress, normalizeEmail, EMAIL_MAX_LENGTH } from '../../src/util/account-text';
import { normalizeEmail as serviceNormalizeEmail } from '../../src/services/accounts/user.service';
import { lookalikes, foreignSpellings } from '../support/lookalikes';

// Issue 26, finding 1: the one normaliser and the one email rule, which the zod `email` schema and every
// caller without a schema (provider profiles, createUser) share.

describe('the email rule (src/schemas/input-rules.ts)', () => {
  it('when an address is valid, then the schema and emailAddress give the same normal form: ASCII whitespace trimmed, ASCII letters lower-cased', () => {
    for (const [input, normal] of [
      ['  Admin@Example.COM\t', 'admin@example.com'],
      ["O'Brien+tag@Sub.Example.co", "o'brien+tag@sub.example.co"],
      ['a_b-c.d@xn--exmple-cua.test', 'a_b-c.d@xn--exmple-cua.test'],
    ]) {
      assert.equal(emailAddress(input), normal, input);
      assert.deepEqual(email.safeParse(input), { success: true, data: normal }, input);
    }
  });

  it('when an address is a look-alike, has a trailing dot, or is no address, then the schema and emailAddress refuse it alike', () => {
    const set = lookalikes();
    const refused = [
      ...foreignSpellings(set).map(([, value]) => value),
      `${set.real.split('@')[0]}.@example.test`,
      '\u00a0admin@example.com',
      'admin@example.com\u3000',
      'admin@localhost',
      'admin@@example.com',
      `${'a'.repeat(EMAIL_MAX_LENGTH)}@example.com`,
      '',
    ];
    for (const value of refused) {
      assert.equal(emailAddress(value), null, JSON.stringify(value));
      assert.equal(email.safeParse(value).success, false, JSON.stringify(value));
    }
    assert.equal(emailAddress(undefined), null);
    assert.equal(emailAddress(42), null);
  });

  it('when the normaliser meets a non-ASCII letter, then it leaves it as it is (the Kelvin sign does not become "k")', () => {
    assert.equal(normalizeEmail('\u212Aim@Example.com'), '\u212Aim@example.com');
    assert.equal(normalizeEmail('ÄDMIN@EXAMPLE.COM'), 'Ädmin@example.com');
    assert.equal(serviceNormalizeEmail, normalizeEmail, 'user.service re-exports the one normaliser');
  });

  it('when an address is too long, then the schema names the limit once', () => {
    const result = email.safeParse(`${'a'.repeat(EMAIL_MAX_LENGTH)}@example.com`);
    assert.equal(result.success, false);
    assert.deepEqual(result.error?.issues.map((issue) => issue.message), [`must be at most ${EMAIL_MAX_LENGTH} characters`]);
  });
});
