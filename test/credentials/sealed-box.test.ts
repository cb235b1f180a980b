import assert from 'node:assert/strict';
import { createSealedBox, type SealLayout } from '../../src/credentials/sealed-box';

const SECRET = 's'.repeat(40);
const totpBox = (secret = SECRET) => createSealedBox({ secret, salt: '', info: 'two-factor secret box v1', layout: 'tag-last' });
const keyBox = (secret = SECRET) => createSealedBox({ secret, salt: 'auth-service', info: 'signing-keys.v1', layout: 'tag-apart' });

describe('sealed box (secrets at rest)', () => {
  it('when values were sealed by the two sealers this box replaced, then it opens them (stored rows stay readable)', () => {
    // Written by the TOTP secret box and the signing keys' sealer as they were before they shared this module.
    assert.equal(totpBox().open('v1.8DWiSUnJK1OJme1a.xA7Jt3iF0p-TPHIinIWr64CebfPw4PENwfuv5v0ii38', 'user-1')?.toString('utf8'), 'JBSWY3DPEHPK3PXP');
    assert.equal(keyBox().open('v1.sJ5OvxjwDRSFEfDl.KaAnJC5v5Qq9R0rJ7pjjTA._9C-NO2N79k_l2vq05TN1rU', 'kid-1')?.toString('utf8'), 'private key bytes');
  });

  for (const [layout, box, parts] of [['tag-last', totpBox, 3], ['tag-apart', keyBox, 4]] as const satisfies ReadonlyArray<readonly [SealLayout, typeof totpBox, number]>) {
    describe(layout, () => {
      it('when a value is sealed, then it opens for its owner only, under the same secret and label only', () => {
        const sealed = box().seal('the secret', 'owner-1');
        assert.equal(sealed.split('.').length, parts);
        assert.ok(!sealed.includes('the secret'));
        assert.equal(box().open(sealed, 'owner-1')?.toString('utf8'), 'the secret');
        assert.equal(box().open(sealed, 'owner-2'), null);
        assert.equal(box('t'.repeat(40)).open(sealed, 'owner-1'), null);
        const otherLabel = layout === 'tag-last' ? keyBox() : totpBox();
        assert.equal(otherLabel.open(sealed, 'owner-1'), null);
        assert.notEqual(box().seal('the secret', 'owner-1'), sealed, 'a fresh IV each time');
      });

      it('when the stored text is altered, truncated or not a sealed value, then it does not open (null, no throw)', () => {
        const sealed = box().seal(Buffer.from('bytes'), 'owner-1');
        const flipped = sealed.slice(0, -2) + (sealed.endsWith('AA') ? 'BA' : 'AA');
        for (const bad of [flipped, sealed.slice(0, -8), `v2${sealed.slice(2)}`, sealed.split('.').slice(0, -1).join('.'), '', 'v1...', 'not sealed']) {
          assert.equal(box().open(bad, 'owner-1'), null, bad);
        }
      });
    });
  }

  it('when a tag is cut short to a few bytes, then it does not open (GCM would accept 4-byte tags unless told otherwise)', () => {
    const sealed = keyBox().seal('x', 'owner-1');
    const [version, iv, tag, body] = sealed.split('.');
    const short = [version, iv, Buffer.from(tag, 'base64url').subarray(0, 4).toString('base64url'), body].join('.');
    assert.equal(keyBox().open(short, 'owner-1'), null);
  });
});
