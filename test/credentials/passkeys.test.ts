import assert from 'node:assert/strict';
import { MemoryStore } from '../../src/store/memory-store';
import { PASSKEY_CHALLENGE_SECONDS, createPasskeyCeremonies, decoyCredentials, failureReason, relyingPartyOf } from '../../src/credentials/passkeys';

describe('passkey ceremonies (src/credentials/passkeys.ts)', () => {
  it('when BASE_URL names a host, then it is the RP ID and its origin the expected origin; an IP address gives no relying party', () => {
    assert.deepEqual(relyingPartyOf('https://auth.example.com', 'Acme'), { id: 'auth.example.com', origin: 'https://auth.example.com', name: 'Acme' });
    assert.deepEqual(relyingPartyOf('http://localhost:3000/base', 'Auth service'), { id: 'localhost', origin: 'http://localhost:3000', name: 'Auth service' });
    for (const ip of ['http://127.0.0.1:3000', 'https://10.0.0.5', 'http://[::1]:8080', 'https://[2001:db8::1]']) assert.equal(relyingPartyOf(ip, 'x'), null, ip);
  });

  it('when options are made, then the challenge is kept in the store for 5 minutes and taken once', async () => {
    const ttls: Array<number | undefined> = [];
    const store = new MemoryStore();
    const recording = Object.assign(Object.create(store) as MemoryStore, {
      set: (key: string, value: string, ttl?: number) => {
        ttls.push(ttl);
        return store.set(key, value, ttl);
      },
    });
    const ceremonies = createPasskeyCeremonies({ rp: { id: 'localhost', origin: 'http://localhost:3000', name: 'x' }, store: recording });
    const options = await ceremonies.authenticationOptions(null, { kind: 'login', userId: null });
    assert.deepEqual(ttls, [PASSKEY_CHALLENGE_SECONDS]);
    assert.equal(PASSKEY_CHALLENGE_SECONDS, 300);
    const clientData = Buffer.from(JSON.stringify({ type: 'webauthn.get', challenge: options.challenge, origin: 'http://localhost:3000' })).toString('base64url');
    assert.deepEqual((await ceremonies.claimChallenge(clientData))?.record, { kind: 'login', userId: null });
    assert.equal(await ceremonies.claimChallenge(clientData), null, 'single use');
    assert.equal(await ceremonies.claimChallenge('bm90IGpzb24'), null, 'not JSON');
  });

  it('when stand-in ids are made for an email, then they are stable per email, differ between emails, and look like real ids', () => {
    const a = decoyCredentials('secret', 'a@example.com');
    assert.deepEqual(decoyCredentials('secret', 'a@example.com'), a);
    assert.notDeepEqual(decoyCredentials('secret', 'b@example.com'), a);
    assert.notDeepEqual(decoyCredentials('other secret', 'a@example.com'), a);
    for (const { id } of a) assert.ok([16, 20, 32, 64].includes(Buffer.from(id, 'base64url').length));
  });

  it('when the library refuses a response, then the activity reason is a word, never its text', () => {
    assert.equal(failureReason(new Error('Unexpected authentication response origin "http://evil", expected "http://localhost:3000"')), 'origin');
    assert.equal(failureReason(new Error('Unexpected RP ID hash')), 'rp_id');
    assert.equal(failureReason(new Error('Response counter value 1 was lower than expected 2')), 'counter');
    assert.equal(failureReason(new Error('User verification required, but user could not be verified')), 'user_verification');
    assert.equal(failureReason(new Error('something else')), 'invalid_response');
  });
});
