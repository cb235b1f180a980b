import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import pino from 'pino';
import { ctx } from '../support/context';
import { createRevocations } from '../../src/sessions/revocations';

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** CONTRACT 8: a superseded token's window starts once and never moves; store and database agree on it. */
describe('deferred revocations (the refresh reuse window)', () => {
  const revocations = () => createRevocations({ models: ctx().models, store: ctx().store, logger: pino({ level: 'silent' }) });

  async function recorded(id: string): Promise<{ store: string | null; database: number | null | undefined }> {
    const row = await ctx().models.RevokedToken.findByPk(id);
    return { store: await ctx().store.get(`revoked:${id}`), database: row?.effectiveAt };
  }

  it('when a token is superseded twice, then the store and the database keep the first start', async () => {
    const id = crypto.randomUUID();
    const start = nowSeconds() + 60;

    await revocations().revoke(id, start + 3600, start);
    await revocations().revoke(id, start + 3600, start + 30);

    assert.deepEqual(await recorded(id), { store: String(start), database: start });
  });

  it('when a superseded token is then revoked at once (logout), then both hold it in effect at once', async () => {
    const id = crypto.randomUUID();
    const start = nowSeconds() + 60;

    await revocations().revoke(id, start + 3600, start);
    await revocations().revoke(id, start + 3600);

    assert.deepEqual(await recorded(id), { store: '1', database: null });
  });

  it('when a token revoked at once is superseded afterwards, then it stays in effect at once', async () => {
    const id = crypto.randomUUID();

    await revocations().revoke(id, nowSeconds() + 3600);
    await revocations().revoke(id, nowSeconds() + 3600, nowSeconds() + 60);

    assert.deepEqual(await recorded(id), { store: '1', database: null });
  });
});
