import assert from 'node:assert/strict';
import request from 'supertest';
import type { Express } from 'express';
import { PASSWORD, makeUser, nextClientIp, proxiedApp } from '../support/auth';
import { ACCOUNT_THROTTLE } from '../../src/credentials/account-throttle';

/** The one password check reserves an attempt in the account throttle before it hashes (reserve, then judge). */
describe('password check: reserve, then judge', () => {
  let app: Express;
  before(() => {
    app = proxiedApp();
  });
  const login = (email: string, password: string) => request(app).post('/auth/login').set('X-Forwarded-For', nextClientIp()).send({ email, password });

  it('when 20 wrong passwords for one email arrive at once, then exactly 10 are hashed and judged (401) and the rest are 429', async () => {
    const user = await makeUser();
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => login(user.email, `parallel-${i}-guess`)));
    const statuses = results.map((res) => res.status);
    assert.equal(statuses.filter((status) => status === 401).length, ACCOUNT_THROTTLE.maxFailures, statuses.join(','));
    assert.equal(statuses.filter((status) => status === 429).length, 20 - ACCOUNT_THROTTLE.maxFailures);
  });

  it('when 25 right passwords and 5 wrong ones for a fresh account arrive at once, then every right one signs in', async () => {
    const user = await makeUser();
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => login(user.email, i % 6 === 5 ? `wrong-${i}-password` : PASSWORD)));
    const rights = results.filter((_, i) => i % 6 !== 5);
    assert.deepEqual(rights.map((res) => res.status), Array(25).fill(200));
  });
});
