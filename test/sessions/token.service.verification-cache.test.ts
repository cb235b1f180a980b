import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import request from 'supertest';
import { buildApp, ctx } from '../support/context';
import { closedPort } from '../support/ports';
import { createUserWithToken, tokenFor } from '../support/users';
import { createApp } from '../../src/app';
import { RedisStore } from '../../src/store/redis-store';
import { MemoryStore } from '../../src/store/memory-store';
import { payloadOf } from '../support/auth';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('token verification cache (SPEC 5.4)', () => {
  it('when a token is verified, then the result is cached under a hash of the whole token and served from there', async () => {
    const { user, token } = await createUserWithToken('viewer', { firstName: 'Before' });
    const first = await request(ctx().app).get('/auth/me').set('Authorization', `Bearer ${token}`);
    assert.equal(first.body.user.firstName, 'Before');
    const key = `vc:${crypto.createHash('sha256').update(token).digest('hex')}`;
    assert.ok(await ctx().store.get(key), 'the cache entry is keyed by sha256 of the whole token');

    // A change behind the service's back (no cache invalidation) is not seen while the entry lives:
    // proof that the second answer came from the cache, not the database.
    await ctx().models.User.update({ firstName: 'Behind' }, { where: { id: user.id } });
    const second = await request(ctx().app).get('/auth/me').set('Authorization', `Bearer ${token}`);
    assert.equal(second.body.user.firstName, 'Before');
  });

  it('when a token is verified, then its cache entry lives at most 300 seconds (SPEC 5.4), whatever the token has left', async () => {
    // An in-process store on a clock of our own, so the entry's expiry can be read off without waiting.
    let now = Date.now();
    const store = new MemoryStore(() => now);
    const c = ctx();
    const app = createApp({ config: c.config, logger: c.logger, sequelize: c.sequelize, models: c.models, store });
    try {
      const { token } = await createUserWithToken('viewer');
      assert.ok((payloadOf(token).exp as number) - Math.floor(Date.now() / 1000) > 300, 'the token outlives the cache');
      await request(app).get('/auth/me').set('Authorization', `Bearer ${token}`).expect(200);
      const key = `vc:${crypto.createHash('sha256').update(token).digest('hex')}`;
      assert.ok(await store.get(key), 'the verified token is cached');

      now += 299_000;
      assert.ok(await store.get(key), 'still cached after 299 s');
      now += 1_000;
      assert.equal(await store.get(key), null, 'gone at 300 s');
    } finally {
      await store.close();
    }
  });

  it('when the cached token is sent with another signature, then 401: the cache entry vouches only for the exact token', async () => {
    const { user, token } = await createUserWithToken('viewer', { firstName: 'Cached' });
    const me = (bearer: string) => request(ctx().app).get('/auth/me').set('Authorization', `Bearer ${bearer}`);
    assert.equal((await me(token)).body.user.firstName, 'Cached');
    // The genuine token's entry is live (however it is keyed): a change behind the cache's back is not seen.
    await ctx().models.User.update({ firstName: 'Behind' }, { where: { id: user.id } });
    assert.equal((await me(token)).body.user.firstName, 'Cached', 'served from the cache entry');

    const head = token.slice(0, token.lastIndexOf('.'));
    const signature = token.slice(token.lastIndexOf('.') + 1);
    const forgeries: Array<[label: string, forged: string]> = [
      ['signed with another secret', `${head}.${crypto.createHmac('sha256', 'not-our-secret').update(head).digest('base64url')}`],
      ['one character changed', `${head}.${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`],
      ['no signature', `${head}.`],
    ];
    for (const [label, forged] of forgeries) {
      assert.notEqual(forged, token);
      assert.equal((await me(forged)).status, 401, label);
    }
    assert.equal((await me(token)).body.user.firstName, 'Cached', 'the genuine token and its entry are untouched');
  });

  it('when one token is used again and again, then each answer follows the store as it is now, not a copy kept in the process', async () => {
    const { user, token } = await createUserWithToken('viewer', { firstName: 'First' });
    const me = () => request(ctx().app).get('/auth/me').set('Authorization', `Bearer ${token}`);
    for (let i = 0; i < 3; i++) assert.equal((await me()).body.user.firstName, 'First');
    const key = `vc:${crypto.createHash('sha256').update(token).digest('hex')}`;
    const entry = JSON.parse((await ctx().store.get(key)) as string);
    entry.user.firstName = 'Rewritten';
    await ctx().store.set(key, JSON.stringify(entry), 60);
    assert.equal((await me()).body.user.firstName, 'Rewritten', 'a changed entry is read, not the one parsed before');
    await ctx().store.delete(key);
    await ctx().models.User.update({ firstName: 'Fresh' }, { where: { id: user.id } });
    assert.equal((await me()).body.user.firstName, 'Fresh', 'without an entry the token is verified against the database');
    await request(ctx().app).post('/auth/logout').set('Authorization', `Bearer ${token}`).expect(200);
    await me().expect(401);
  });

  it('when two tokens share a long common prefix, then each has its own cache entry', async () => {
    const { user } = await createUserWithToken('viewer');
    const a = await tokenFor(user);
    const b = await tokenFor(user);
    const [, , sigA] = a.split('.');
    const [, , sigB] = b.split('.');
    assert.notEqual(sigA, sigB);
    await request(ctx().app).get('/auth/me').set('Authorization', `Bearer ${a}`).expect(200);
    await request(ctx().app).post('/auth/logout').set('Authorization', `Bearer ${a}`).expect(200);
    await request(ctx().app).get('/auth/me').set('Authorization', `Bearer ${a}`).expect(401);
    await request(ctx().app).get('/auth/me').set('Authorization', `Bearer ${b}`).expect(200);
  });

  it('when the token expires before the cache entry would, then it is refused at its expiry', async function () {
    this.timeout(10_000);
    const app = buildApp({ env: { JWT_EXPIRES_IN: '2s', JWT_REFRESH_GRACE_SECONDS: '0' } });
    const { user } = await createUserWithToken('viewer');
    const login = await request(app).post('/auth/refresh').set('Authorization', `Bearer ${await tokenFor(user)}`);
    const shortLived = login.body.token as string;
    await request(app).get('/auth/me').set('Authorization', `Bearer ${shortLived}`).expect(200);
    await sleep(2100);
    await request(app).get('/auth/me').set('Authorization', `Bearer ${shortLived}`).expect(401);
  });

  it('when the store answers reads but refuses the write of a deactivated user\'s new version, then the cached token is refused at once', async () => {
    const c = ctx();
    let refuseWrites = false;
    // Redis out of memory (noeviction) answers reads and refuses writes.
    const store = new Proxy(c.store, {
      get(target, name) {
        const value = Reflect.get(target, name, target) as unknown;
        if (refuseWrites && (name === 'set' || name === 'setIfAbsent')) return () => Promise.reject(new Error('OOM command not allowed'));
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    const app = createApp({ config: c.config, logger: c.logger, sequelize: c.sequelize, models: c.models, store });
    const { token: adminToken } = await createUserWithToken('admin');
    const { user, token } = await createUserWithToken('viewer');
    const me = () => request(app).get('/auth/me').set('Authorization', `Bearer ${token}`);
    assert.equal((await me()).status, 200);
    assert.equal((await me()).status, 200); // from the cache
    refuseWrites = true;
    try {
      const off = await request(app).patch(`/api/users/${user.id}`).set('Authorization', `Bearer ${adminToken}`).send({ active: false });
      assert.equal(off.status, 200);
      assert.equal((await me()).status, 401);
    } finally {
      refuseWrites = false;
    }
    // Writes work again: still refused (the database decides, and the reload voided the cached results).
    assert.equal((await me()).status, 401);
  });

  it('when the key-value store is down, then tokens are verified fully against the database, never assumed valid', async () => {
    const c = ctx();
    const store = new RedisStore(`redis://127.0.0.1:${await closedPort()}`);
    await assert.rejects(store.connect());
    const app = createApp({ config: c.config, logger: c.logger, sequelize: c.sequelize, models: c.models, store });
    try {
      const { user, token } = await createUserWithToken('viewer');
      const ok = await request(app).get('/auth/me').set('Authorization', `Bearer ${token}`);
      assert.equal(ok.status, 200);
      assert.equal(ok.body.user.id, user.id);
      await c.models.User.update({ active: false }, { where: { id: user.id } });
      const refused = await request(app).get('/auth/me').set('Authorization', `Bearer ${token}`);
      assert.equal(refused.status, 401);
    } finally {
      await store.close();
    }
  });
});
