import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { ctx } from '../../support/context';
import { createOidcAdapter } from '../../../src/services/oidc-provider/adapter';

/**
 * The adapter's hand-written statements (read by id and by uid, consume, upsert) against the real database of
 * the run (SQLite, or MariaDB when DATABASE_URL says so): dates, expiry and the consumption mark read back as the
 * provider needs them.
 */
describe('OpenID Provider adapter', () => {
  const reuse: Array<{ grantId: string | undefined; model: string }> = [];
  function adapter(model: string) {
    const Adapter = createOidcAdapter(ctx().sequelize, ctx().models, async () => undefined, {
      accessTokenId: () => undefined,
      consumedTwice: async (grantId, kind) => {
        reuse.push({ grantId, model: kind });
        return new Error('reused');
      },
    });
    return new Adapter(model);
  }
  const id = () => crypto.randomBytes(16).toString('base64url');

  it('when a payload is stored, then it reads back by id and by uid; stored again, it is replaced, not doubled', async () => {
    const sessions = adapter('Session');
    const [key, uid] = [id(), id()];
    await sessions.upsert(key, { uid, accountId: 'a' }, 60);
    assert.deepEqual(await sessions.find(key), { uid, accountId: 'a' });
    assert.deepEqual(await sessions.findByUid(uid), { uid, accountId: 'a' });
    await sessions.upsert(key, { uid, accountId: 'b' }, 60);
    assert.deepEqual(await sessions.find(key), { uid, accountId: 'b' });
    assert.equal(await ctx().models.OidcPayload.count({ where: { model: 'Session', id: key } }), 1);
    assert.equal(await adapter('Grant').find(key), undefined, 'another model does not see it');
  });

  it('when a payload is past its expiry, then it is not found; without an expiry, it is', async () => {
    const codes = adapter('AuthorizationCode');
    const [expired, lasting] = [id(), id()];
    await codes.upsert(expired, { grantId: 'g' }, 60);
    await ctx().models.OidcPayload.update({ expiresAt: new Date(Date.now() - 1000) }, { where: { model: 'AuthorizationCode', id: expired } });
    assert.equal(await codes.find(expired), undefined);
    await codes.upsert(lasting, { grantId: 'g' });
    assert.deepEqual(await codes.find(lasting), { grantId: 'g' });
  });

  it('when a code is consumed, then it reads back with the time of consumption, an upsert keeps the mark, and a second consume is reuse', async () => {
    const codes = adapter('AuthorizationCode');
    const [code, grantId] = [id(), id()];
    await codes.upsert(code, { grantId }, 60);
    const before = Math.floor(Date.now() / 1000);
    await codes.consume(code);
    const consumed = (await codes.find(code))?.consumed;
    assert.ok(typeof consumed === 'number' && consumed >= before && consumed <= Math.ceil(Date.now() / 1000), `consumed ${consumed}`);
    await codes.upsert(code, { grantId, again: true }, 60);
    assert.equal((await codes.find(code))?.consumed, consumed);
    await assert.rejects(codes.consume(code), /reused/);
    assert.deepEqual(reuse.at(-1), { grantId, model: 'AuthorizationCode' });
    assert.equal(await codes.find(code), undefined, "the reused code's grant ended with it");
  });
});
