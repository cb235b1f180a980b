import assert from 'node:assert/strict';
import request, { type Response } from 'supertest';
import type { Express } from 'express';
import { ctx } from '../support/context';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import { createTestUser } from '../support/users';
import { setCookies } from '../support/auth';
import { EXTERNAL_AUTH_SECRET, signInByLink } from '../support/magic-link';
import { killRedis, redisServerAvailable, startRedis, type PrivateRedis } from '../support/redis-server';
import { RedisStore } from '../../src/store/redis-store';
import { createApp } from '../../src/app';
import { loadConfig } from '../../src/config/config';

/** The session and CSRF cookies of a sign-in, and the header an unsafe request echoes. */
function sessionHeaders(res: Response): { Cookie: string; 'X-CSRF-Token': string } {
  const cookies = setCookies(res);
  const csrf = cookies.csrf_token.value;
  return { Cookie: `auth_session=${encodeURIComponent(cookies.auth_session.value)}; csrf_token=${encodeURIComponent(csrf)}`, 'X-CSRF-Token': csrf };
}

describe('magic-link sessions across two service instances (each with its own Redis connection)', function () {
  this.timeout(60_000);
  let redis: PrivateRedis | undefined;
  let sink: SmtpSink;
  const stores: RedisStore[] = [];
  let first: Express;
  let second: Express;

  before(async function () {
    if (!redisServerAvailable()) this.skip();
    redis = await startRedis();
    sink = await startSmtpSink();
    const { env, logger, sequelize, models } = ctx();
    const config = loadConfig({ ...env, REDIS_URL: redis.url, EXTERNAL_AUTH_SECRET, SMTP_URL: sink.url, EMAIL_FROM: 'auth@example.test' });
    const instances = [];
    for (let i = 0; i < 2; i++) {
      const store = new RedisStore(redis.url, { keyPrefix: 'shared:' });
      await store.connect();
      stores.push(store);
      instances.push(createApp({ config, logger, sequelize, models, store }));
    }
    [first, second] = instances;
  });

  after(async () => {
    for (const store of stores) await store.close();
    if (redis) await killRedis(redis);
    await sink?.stop();
  });

  it('when a session starts on one instance, then the other honours it, and signing out on either ends it on both', async () => {
    const user = await createTestUser('viewer');
    const headers = sessionHeaders(await signInByLink(first, sink, user.email));
    const me = await request(second).get('/auth/me').set('Cookie', headers.Cookie);
    assert.equal(me.status, 200);
    assert.equal(me.body.user.id, user.id);
    assert.equal((await request(second).post('/auth/logout').set(headers)).status, 200);
    assert.equal((await request(first).get('/auth/me').set('Cookie', headers.Cookie)).status, 401);
    assert.equal((await request(second).get('/auth/me').set('Cookie', headers.Cookie)).status, 401);
  });

  it('when the user logs out everywhere on one instance, then every session of theirs ends on the other', async () => {
    const user = await createTestUser('viewer');
    const one = sessionHeaders(await signInByLink(first, sink, user.email));
    const two = sessionHeaders(await signInByLink(second, sink, user.email));
    assert.equal((await request(first).get('/auth/me').set('Cookie', two.Cookie)).status, 200);
    assert.equal((await request(second).post('/auth/logout-all').set(one)).status, 200);
    assert.equal((await request(first).get('/auth/me').set('Cookie', one.Cookie)).status, 401);
    assert.equal((await request(first).get('/auth/me').set('Cookie', two.Cookie)).status, 401);
  });
});
