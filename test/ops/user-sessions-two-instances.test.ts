import assert from 'node:assert/strict';
import request from 'supertest';
import type { Express } from 'express';
import { makeUser, payloadOf } from '../support/auth';
import { bearer, signIn, twoInstances } from '../support/two-instances';

/**
 * CONTRACT 8 across instances: a session ended or caught reused on one instance is dead on the other at once,
 * whatever the other's verification cache holds, and stays dead when Redis restarts empty.
 */
describe('sessions across two service instances (each with its own Redis connection)', function () {
  this.timeout(60_000);
  // No reuse window: a superseded token is dead at once, so reuse is tested without waiting.
  const instances = twoInstances({ env: { REFRESH_REUSE_WINDOW_SECONDS: '0' } });
  const { stores } = instances;

  const me = (on: Express, token: string) => request(on).get('/auth/me').set(bearer(token));

  it('when a session is ended on one instance, then the other refuses its token at once, though it had cached it', async () => {
    const { first, second } = instances;
    const user = await makeUser();
    const laptop = await signIn(first, user.email);
    const phone = await signIn(second, user.email);
    assert.equal((await me(second, laptop)).status, 200, 'verified and cached on the second instance');

    assert.equal((await request(first).delete(`/auth/sessions/${payloadOf(laptop).sid}`).set(bearer(phone))).status, 204);

    assert.equal((await me(second, laptop)).status, 401);
    assert.equal((await me(first, laptop)).status, 401);
    assert.equal((await me(second, phone)).status, 200);
  });

  it('when a superseded token is reused on the other instance, then the session ends on both', async () => {
    const { first, second } = instances;
    const user = await makeUser();
    const stolen = await signIn(first, user.email);
    const owners = (await request(first).post('/auth/refresh').set(bearer(stolen))).body.token as string;
    assert.equal((await me(second, owners)).status, 200);

    assert.equal((await request(second).post('/auth/refresh').set(bearer(stolen))).status, 401);

    assert.equal((await me(first, owners)).status, 401);
    assert.equal((await me(second, owners)).status, 401);
  });

  it('when Redis restarts empty after a session was ended, then neither instance lets its token back in', async () => {
    const { first, second } = instances;
    const user = await makeUser();
    const ended = await signIn(first, user.email);
    const current = await signIn(first, user.email);
    assert.equal((await me(second, ended)).status, 200);
    await request(first).delete(`/auth/sessions/${payloadOf(ended).sid}`).set(bearer(current));

    await stores[0].client.flushall();

    assert.equal((await me(second, ended)).status, 401);
    assert.equal((await me(first, ended)).status, 401);
    assert.equal((await me(second, current)).status, 200);
  });
});
