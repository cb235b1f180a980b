import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import request from 'supertest';
import { ctx } from '../support/context';
import { closedPort } from '../support/ports';
import { createUserWithToken } from '../support/users';
import { createApp } from '../../src/app';
import { RedisStore } from '../../src/store/redis-store';

function claimsOf(token: string): { jti: string; exp: number } {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as { jti: string; exp: number };
}

const me = (token: string) => request(ctx().app).get('/auth/me').set('Authorization', `Bearer ${token}`);

describe('single-token revocation is durable (revoked_tokens + the store as a marked copy)', () => {
  it('when a token is logged out, then the database records it until it could no longer be refreshed, and the store has it too', async () => {
    const { token } = await createUserWithToken();
    await me(token).expect(200);
    await request(ctx().app).post('/auth/logout').set('Authorization', `Bearer ${token}`).expect(200);
    const { jti, exp } = claimsOf(token);
    const row = await ctx().models.RevokedToken.findByPk(jti);
    assert.ok(row);
    assert.equal(row.expiresAt, exp + 604_800);
    assert.equal(row.mirrored, true);
    assert.equal(await ctx().store.get(`revoked:${jti}`), '1');
  });

  it('when the store comes back empty (a restart), then a token logged out before still fails, and the store is refilled', async () => {
    const { token } = await createUserWithToken();
    const other = await createUserWithToken();
    await request(ctx().app).post('/auth/logout').set('Authorization', `Bearer ${token}`).expect(200);
    await me(other.token).expect(200);

    await ctx().store.clear();

    await me(token).expect(401);
    await request(ctx().app).post('/auth/refresh').set('Authorization', `Bearer ${token}`).expect(401);
    await me(other.token).expect(200);
    assert.equal(await ctx().store.get(`revoked:${claimsOf(token).jti}`), '1', 'reloaded from the database');
    assert.ok(await ctx().store.get('revoked:loaded'), 'and marked complete');
  });

  it('when a cached result was made under an older revocation set, then it is not trusted', async () => {
    const { user, token } = await createUserWithToken('viewer', { firstName: 'Before' });
    await me(token).expect(200);
    await ctx().models.User.update({ firstName: 'After' }, { where: { id: user.id } });
    await ctx().store.delete('revoked:loaded');
    const res = await me(token).expect(200);
    assert.equal(res.body.user.firstName, 'After', 'verified against the database again');
  });

  it('when the store is down, then logout still succeeds, the token stays refused, and the row waits to be copied', async () => {
    const c = ctx();
    const store = new RedisStore(`redis://127.0.0.1:${await closedPort()}`);
    await assert.rejects(store.connect());
    const app = createApp({ config: c.config, logger: c.logger, sequelize: c.sequelize, models: c.models, store });
    try {
      const { token } = await createUserWithToken();
      await request(app).get('/auth/me').set('Authorization', `Bearer ${token}`).expect(200);
      await request(app).post('/auth/logout').set('Authorization', `Bearer ${token}`).expect(200);
      await request(app).get('/auth/me').set('Authorization', `Bearer ${token}`).expect(401);
      const row = await c.models.RevokedToken.findByPk(claimsOf(token).jti);
      assert.equal(row?.mirrored, false);
      // The same logout seen by an instance whose store works: the database answers until the copy is made.
      await me(token).expect(401);
    } finally {
      await store.close();
    }
  });

  it('when the revocation set is loaded, then rows past their expiry are pruned and never copied', async () => {
    const jti = crypto.randomUUID();
    await ctx().models.RevokedToken.create({ jti, expiresAt: Math.floor(Date.now() / 1000) - 1, mirrored: false });
    const { token } = await createUserWithToken();
    await me(token).expect(200);
    assert.equal(await ctx().models.RevokedToken.findByPk(jti), null);
    assert.equal(await ctx().store.get(`revoked:${jti}`), null);
  });
});
