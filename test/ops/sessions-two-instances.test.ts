import assert from 'node:assert/strict';
import request, { type Response } from 'supertest';
import { createTestUser } from '../support/users';
import { setCookies } from '../support/auth';
import { EXTERNAL_AUTH_SECRET, signInByLink } from '../support/magic-link';
import { twoInstances } from '../support/two-instances';

/** The session and CSRF cookies of a sign-in, and the header an unsafe request echoes. */
function sessionHeaders(res: Response): { Cookie: string; 'X-CSRF-Token': string } {
  const cookies = setCookies(res);
  const csrf = cookies.csrf_token.value;
  return { Cookie: `auth_session=${encodeURIComponent(cookies.auth_session.value)}; csrf_token=${encodeURIComponent(csrf)}`, 'X-CSRF-Token': csrf };
}

describe('magic-link sessions across two service instances (each with its own Redis connection)', function () {
  this.timeout(60_000);
  const instances = twoInstances({ env: { EXTERNAL_AUTH_SECRET }, mail: true });

  it('when a session starts on one instance, then the other honours it, and signing out on either ends it on both', async () => {
    const { first, second } = instances;
    const user = await createTestUser('viewer');
    const headers = sessionHeaders(await signInByLink(first, instances.mail, user.email));
    const me = await request(second).get('/auth/me').set('Cookie', headers.Cookie);
    assert.equal(me.status, 200);
    assert.equal(me.body.user.id, user.id);
    assert.equal((await request(second).post('/auth/logout').set(headers)).status, 200);
    assert.equal((await request(first).get('/auth/me').set('Cookie', headers.Cookie)).status, 401);
    assert.equal((await request(second).get('/auth/me').set('Cookie', headers.Cookie)).status, 401);
  });

  it('when the user logs out everywhere on one instance, then every session of theirs ends on the other', async () => {
    const { first, second } = instances;
    const user = await createTestUser('viewer');
    const one = sessionHeaders(await signInByLink(first, instances.mail, user.email));
    const two = sessionHeaders(await signInByLink(second, instances.mail, user.email));
    assert.equal((await request(first).get('/auth/me').set('Cookie', two.Cookie)).status, 200);
    assert.equal((await request(second).post('/auth/logout-all').set(one)).status, 200);
    assert.equal((await request(first).get('/auth/me').set('Cookie', one.Cookie)).status, 401);
    assert.equal((await request(first).get('/auth/me').set('Cookie', two.Cookie)).status, 401);
  });
});
