import assert from 'node:assert/strict';
import request, { type Response } from 'supertest';
import type { Express } from 'express';
import { ctx } from '../support/context';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import { createTestUser } from '../support/users';
import { setCookies } from '../support/auth';
import { EXTERNAL_AUTH_SECRET, follow, mailedLink, signInByLink } from '../support/magic-link';
import { killRedis, redisServerAvailable, startRedis, type PrivateRedis } from '../support/redis-server';
import { RedisStore } from '../../src/store/redis-store';
import { startControlledRedis } from '../support/processes';
import { createApp } from '../../src/app';
import { loadConfig } from '../../src/config/config';

const UNAVAILABLE = 'Sign-in sessions are temporarily unavailable. Please try again shortly.';

describe('magic-link sessions when Redis fails (a private redis-server, killed and restarted, or frozen)', function () {
  this.timeout(60_000);
  let redis: PrivateRedis | undefined;
  let store: RedisStore;
  let sink: SmtpSink;
  let app: Express;

  before(async function () {
    if (!redisServerAvailable()) this.skip();
    redis = await startRedis();
    sink = await startSmtpSink();
    const { env, logger, sequelize, models } = ctx();
    store = new RedisStore(redis.url, { keyPrefix: `outage-${Date.now()}:` });
    await store.connect();
    const config = loadConfig({ ...env, REDIS_URL: redis.url, EXTERNAL_AUTH_SECRET, SMTP_URL: sink.url, EMAIL_FROM: 'auth@example.test' });
    app = createApp({ config, logger, sequelize, models, store });
  });

  after(async () => {
    await store?.close();
    if (redis) await killRedis(redis);
    await sink?.stop();
  });

  const cookiesOf = (res: Response) => setCookies(res);

  it('when Redis dies, then session-only requests get 503 (never 500, never signed in), tokens keep working, and a link is not spent until sessions are back', async () => {
    // Arrange: a signed-in session, and an unused link for someone else, while Redis is up.
    const user = await createTestUser('viewer');
    const signedIn = await signInByLink(app, sink, user.email);
    const cookies = cookiesOf(signedIn);
    const session = `auth_session=${encodeURIComponent(cookies.auth_session.value)}`;
    const csrf = cookies.csrf_token.value;
    assert.equal((await request(app).get('/auth/me').set('Cookie', session)).status, 200);
    const other = await createTestUser('viewer');
    const link = await mailedLink(app, sink, other.email);

    // Act: Redis goes away.
    await killRedis(redis!);

    // Assert: the session cannot be read: a clear 503, fast.
    const started = Date.now();
    const me = await request(app).get('/auth/me').set('Cookie', session);
    assert.equal(me.status, 503);
    assert.deepEqual(me.body, { error: UNAVAILABLE });
    assert.ok(me.headers['retry-after']);
    assert.ok(Date.now() - started < 3000, `answered after ${Date.now() - started} ms`);
    const unsafe = await request(app).post('/auth/logout-all').set('Cookie', `${session}; csrf_token=${encodeURIComponent(csrf)}`).set('X-CSRF-Token', csrf);
    assert.equal(unsafe.status, 503);

    // A token still works (its verification falls back to the database), also next to the unreadable session.
    const bearer = { Authorization: `Bearer ${cookies.auth_token.value}` };
    assert.equal((await request(app).get('/auth/me').set(bearer)).status, 200);
    assert.equal((await request(app).get('/auth/me').set(bearer).set('Cookie', session)).status, 200);

    // A click now signs nobody in, and leaves the link usable.
    const click = await follow(app, link);
    assert.equal(click.status, 503);
    assert.deepEqual(Object.keys(cookiesOf(click)), []);
    assert.equal(await ctx().models.AuthVerification.count({ where: { identifier: other.email } }), 1);

    // Redis comes back (empty: no persistence): the old session is gone (401), and the link works.
    redis = await startRedis(redis!.port);
    for (const deadline = Date.now() + 10_000; ; ) {
      try {
        await store.ping();
        break;
      } catch (err) {
        if (Date.now() > deadline) throw err;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    assert.equal((await request(app).get('/auth/me').set('Cookie', session)).status, 401);
    const retry = await follow(app, link);
    assert.equal(retry.status, 302);
    assert.equal(retry.headers.location, '/admin');
    const fresh = `auth_session=${encodeURIComponent(cookiesOf(retry).auth_session.value)}`;
    const meAgain = await request(app).get('/auth/me').set('Cookie', fresh);
    assert.equal(meAgain.status, 200);
    assert.equal(meAgain.body.user.id, other.id);
  });

  it('when Redis freezes, then every session-only request gets its 503 within about a second, also those behind an unanswered one', async () => {
    // Arrange: a service of its own on a Redis that can be frozen, and a signed-in session.
    const frozen = await startControlledRedis();
    const frozenStore = new RedisStore(frozen.url, { keyPrefix: `freeze-${Date.now()}:` });
    try {
      await frozenStore.connect();
      const { env, logger, sequelize, models } = ctx();
      const config = loadConfig({ ...env, REDIS_URL: frozen.url, EXTERNAL_AUTH_SECRET, SMTP_URL: sink.url, EMAIL_FROM: 'auth@example.test' });
      const frozenApp = createApp({ config, logger, sequelize, models, store: frozenStore });
      const user = await createTestUser('viewer');
      const session = `auth_session=${encodeURIComponent(cookiesOf(await signInByLink(frozenApp, sink, user.email)).auth_session.value)}`;
      assert.equal((await request(frozenApp).get('/auth/me').set('Cookie', session)).status, 200);

      // Act: Redis stops answering; session-only requests arrive one after another, 100 ms apart.
      frozen.freeze();
      const answers = await Promise.all(
        [0, 100, 200, 300, 400].map(async (delay) => {
          await new Promise((resolve) => setTimeout(resolve, delay));
          const started = Date.now();
          const res = await request(frozenApp).get('/auth/me').set('Cookie', session);
          return { status: res.status, ms: Date.now() - started };
        }),
      );

      // Assert: each a clear 503, none waiting for more than one timeout.
      assert.deepEqual(answers.map((answer) => answer.status), [503, 503, 503, 503, 503]);
      for (const answer of answers) assert.ok(answer.ms < 1500, `answered after ${answer.ms} ms`);
    } finally {
      frozen.resume();
      await frozenStore.close();
      await frozen.kill();
    }
  });
});
