import assert from 'node:assert/strict';
import request from 'supertest';
import { ctx } from '../support/context';
import { makeUser, payloadOf, PASSWORD } from '../support/auth';

/** Issue 26, finding 3: logout ends the sign-in (every token of its refresh chain), not only the token presented. */
describe('POST /auth/logout ends the whole sign-in', () => {
  const me = (token: string) => request(ctx().app).get('/auth/me').set('Authorization', `Bearer ${token}`);
  const refresh = (token: string) => request(ctx().app).post('/auth/refresh').set('Authorization', `Bearer ${token}`);

  async function signIn(email: string): Promise<string> {
    const res = await request(ctx().app).post('/auth/login').send({ email, password: PASSWORD });
    assert.equal(res.status, 200);
    return res.body.token as string;
  }

  it('when a token refreshed twice is logged out, then the older tokens of the chain stop working and cannot be refreshed; another sign-in stays', async () => {
    const user = await makeUser();
    const first = await signIn(user.email);
    const second = (await refresh(first)).body.token as string;
    const third = (await refresh(second)).body.token as string;
    const otherDevice = await signIn(user.email);
    assert.equal(payloadOf(third).sid, payloadOf(first).sid, 'refresh keeps the sign-in');
    assert.notEqual(payloadOf(otherDevice).sid, payloadOf(first).sid, 'each sign-in is a session of its own');

    assert.equal((await request(ctx().app).post('/auth/logout').set('Authorization', `Bearer ${third}`)).status, 200);

    for (const token of [first, second, third]) {
      assert.equal((await me(token)).status, 401);
      assert.equal((await refresh(token)).status, 401);
    }
    assert.equal((await me(otherDevice)).status, 200);
  });

  it('when the oldest token of a chain is logged out, then the newest one ends too (the thief who refreshed a leaked token is signed out with it)', async () => {
    const user = await makeUser();
    const leaked = await signIn(user.email);
    const thiefs = (await refresh(leaked)).body.token as string;
    assert.equal((await me(thiefs)).status, 200);

    await request(ctx().app).post('/auth/logout').set('Authorization', `Bearer ${leaked}`);

    assert.equal((await me(thiefs)).status, 401);
    assert.equal((await refresh(thiefs)).status, 401);
  });

  it('when the store forgets the revocation (restarted empty), then the database still ends the sign-in', async () => {
    const user = await makeUser();
    const first = await signIn(user.email);
    const second = (await refresh(first)).body.token as string;
    await request(ctx().app).post('/auth/logout').set('Authorization', `Bearer ${second}`);

    await ctx().store.clear();

    assert.equal((await me(first)).status, 401);
    assert.equal((await refresh(first)).status, 401);
  });
});
