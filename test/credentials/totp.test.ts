import assert from 'node:assert/strict';
import { base32Decode, hotp, totp } from '../support/totp';
import { checkTotp, createRecoveryCodeHasher, createSecretBox, newTotpSecret, otpauthUrl, RECOVERY_CODES } from '../../src/credentials/totp';

/** RFC 6238 appendix B: the SHA-1 seed is the ASCII string "12345678901234567890", 8 digits. */
const RFC_SEED = Buffer.from('12345678901234567890', 'ascii');
const RFC_VECTORS: Array<[number, string]> = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
  [20000000000, '65353130'],
];

describe('TOTP primitives (src/credentials/totp.ts) against RFC 6238', () => {
  it('when the test implementation is given the RFC 6238 appendix B SHA-1 vectors, then it gives their codes', () => {
    for (const [time, code] of RFC_VECTORS) assert.equal(totp(RFC_SEED, time, { digits: 8 }), code, `T=${time}`);
    // RFC 4226 appendix D, to check the HOTP under it on its own.
    assert.equal(hotp(RFC_SEED, 0), '755224');
    assert.equal(hotp(RFC_SEED, 9), '520489');
  });

  it('when a secret is made, then it is 20 random bytes in base32 and the otpauth URL names issuer and email', () => {
    const secret = newTotpSecret();
    assert.match(secret, /^[A-Z2-7]+$/);
    assert.equal(base32Decode(secret).length, 20);
    const url = new URL(otpauthUrl('Auth service', 'ann@example.test', secret));
    assert.equal(url.protocol, 'otpauth:');
    assert.equal(url.host, 'totp');
    assert.equal(decodeURIComponent(url.pathname), '/Auth service:ann@example.test');
    assert.equal(url.searchParams.get('secret'), secret);
    assert.equal(url.searchParams.get('issuer'), 'Auth service');
  });

  it('when a code is checked, then the current step and one step either side pass, two steps off does not, and an older step is refused after a newer one', async () => {
    const secret = newTotpSecret();
    const key = base32Decode(secret);
    const now = Math.floor(Date.now() / 1000);
    const step = Math.floor(now / 30);
    assert.equal(await checkTotp(secret, totp(key, now), null), step);
    assert.equal(await checkTotp(secret, totp(key, now - 30), null), step - 1);
    assert.equal(await checkTotp(secret, totp(key, now + 30), null), step + 1);
    assert.equal(await checkTotp(secret, totp(key, now - 60), null), null);
    assert.equal(await checkTotp(secret, totp(key, now + 60), null), null);
    // Replay: the step already used (or an older one) is refused.
    assert.equal(await checkTotp(secret, totp(key, now), step), null);
    assert.equal(await checkTotp(secret, totp(key, now - 30), step), null);
    assert.equal(await checkTotp(secret, totp(key, now + 30), step), step + 1);
    assert.equal(await checkTotp(secret, 'abcdef', null), null);
    assert.equal(await checkTotp(secret, '1234567', null), null);
  });

  it('when a secret is sealed, then only the same key and owner open it, and the sealed text holds no trace of it', () => {
    const box = createSecretBox('a'.repeat(40));
    const secret = newTotpSecret();
    const sealed = box.seal(secret, 'user-1');
    assert.ok(!sealed.includes(secret));
    assert.equal(box.open(sealed, 'user-1'), secret);
    assert.equal(box.open(sealed, 'user-2'), null);
    assert.equal(createSecretBox('b'.repeat(40)).open(sealed, 'user-1'), null);
    assert.equal(box.open(sealed.slice(0, -2) + 'AA', 'user-1'), null);
  });

  it('when recovery codes are made, then there are ten distinct ones, hashed under the key, read loosely', () => {
    const hasher = createRecoveryCodeHasher('c'.repeat(40));
    const { codes, hashes } = hasher.generate();
    assert.equal(codes.length, RECOVERY_CODES.count);
    assert.equal(new Set(codes).size, codes.length);
    for (const code of codes) assert.match(code, /^[a-z2-9]{5}-[a-z2-9]{5}$/);
    assert.equal(hasher.hash(` ${codes[0].toUpperCase().replace('-', ' ')} `), hashes[0]);
    assert.notEqual(createRecoveryCodeHasher('d'.repeat(40)).hash(codes[0]), hashes[0]);
  });
});
