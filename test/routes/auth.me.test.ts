import assert from 'node:assert/strict';
import request from 'supertest';
import { ctx } from '../support/context';
import { createUserWithToken } from '../support/users';

/** Runs `work` counting the /auth/me answers serialized for the user with `email` (not the cache entries, which hold tokenEpoch). */
async function countingAnswers(email: string, work: () => Promise<void>): Promise<number> {
  const stringify = JSON.stringify;
  let count = 0;
  JSON.stringify = ((...args: Parameters<typeof JSON.stringify>) => {
    const text = stringify(...args);
    if (typeof text === 'string' && text.startsWith('{"user":') && text.includes(email) && !text.includes('"tokenEpoch"')) count++;
    return text;
  }) as typeof JSON.stringify;
  try {
    await work();
  } finally {
    JSON.stringify = stringify;
  }
  return count;
}

describe('GET /auth/me: the answer kept with the user record', () => {
  it('when a user asks again and again, then the answer is built once for their record, the same each time, and a change of the user is answered at once', async () => {
    const { user, token } = await createUserWithToken('viewer', { firstName: 'Kept' });
    const me = () => request(ctx().app).get('/auth/me').set('Authorization', `Bearer ${token}`).expect(200).expect('Content-Type', 'application/json; charset=utf-8');
    const bodies: unknown[] = [];
    const built = await countingAnswers(user.email, async () => {
      for (let i = 0; i < 6; i++) bodies.push((await me()).body);
    });
    // The first answer may come from a database read (a record of its own); the cached record's answer is kept.
    assert.ok(built <= 2, `built ${built} times for 6 requests`);
    for (const body of bodies) assert.deepEqual(body, bodies[0]);
    assert.equal((bodies[0] as { user: { firstName: string } }).user.firstName, 'Kept');

    const admin = await createUserWithToken('admin');
    await request(ctx().app).patch(`/api/users/${user.id}`).set('Authorization', `Bearer ${admin.token}`).send({ firstName: 'Changed' }).expect(200);
    assert.equal((await me()).body.user.firstName, 'Changed');
  });
});
