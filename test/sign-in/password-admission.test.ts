import assert from 'node:assert/strict';
import os from 'node:os';
import request from 'supertest';
import type { Express } from 'express';
import { buildApp, sqlSentDuring } from '../support/context';
import { makeUser, PASSWORD } from '../support/auth';
import { createPasswordService } from '../../src/credentials/password.service';
import { DEVICE_COOKIE } from '../../src/sign-in/device-cookies';

/** The device cookie a sign-in answer set. */
const deviceCookieOf = (res: request.Response): string | undefined =>
  ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith(`${DEVICE_COOKIE}=`))?.split(';')[0];

/**
 * Issue 51: under a credential-stuffing flood an unknown browser's guess is refused before the route reads anything.
 * The process's one hashing queue is made to stall for real: a slow hash in every slot (about a second each) and
 * cheap ones waiting behind them, so the open lane's estimated wait passes its bound while nothing finishes.
 */
describe('password sign-in admission (the open lane is asked before any read)', () => {
  let app: Express;
  before(() => {
    app = buildApp({ env: { TRUST_PROXY: 'true' } });
  });

  it('when the hashing threads stall under a flood, then an unknown browser gets 429 with Retry-After and no SQL is sent, while a known browser still signs in', async () => {
    const user = await makeUser();
    const first = await request(app).post('/auth/login').set('X-Forwarded-For', '198.51.100.7').send({ email: user.email, password: PASSWORD });
    assert.equal(first.status, 200);
    const device = deviceCookieOf(first);
    assert.ok(device, 'the browser got a device cookie');

    // The same process-wide queue as the app's password service: slow hashes fill the slots, cheap ones wait.
    const slow = createPasswordService({ iterations: 2_500_000 });
    const cheap = createPasswordService({ iterations: 1 });
    const work = [
      // Every slot of the threads, and the known lane's own slot beside them.
      ...Array.from({ length: 2 * os.availableParallelism() + 1 }, () => slow.hash('fill-the-slots', 'known')),
      ...Array.from({ length: 20 }, () => cheap.hash('waiting', 'known')),
    ];
    await new Promise((resolve) => setTimeout(resolve, 400));

    let refused: request.Response | undefined;
    const sql = await sqlSentDuring(async () => {
      refused = await request(app).post('/auth/login').set('X-Forwarded-For', '198.51.100.8').send({ email: `stuffed-${user.email}`, password: 'wrong-guess-1' });
    });
    assert.equal(refused?.status, 429, refused?.text);
    assert.ok(Number(refused?.headers['retry-after']) >= 1);
    assert.deepEqual(sql, [], 'refused before the SSO domain lookup and the account read');

    const known = await request(app).post('/auth/login').set('X-Forwarded-For', '198.51.100.7').set('Cookie', device).send({ email: user.email, password: PASSWORD });
    assert.equal(known.status, 200, 'a known browser waits in the priority lane');
    await Promise.all(work);
  });
});
