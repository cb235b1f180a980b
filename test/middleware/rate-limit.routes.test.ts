import assert from 'node:assert/strict';
import request from 'supertest';
import { ctx, uniqueEmail } from '../support/context';

const TOO_MANY = { error: 'Too many requests. Please try again later.' };

/** Each limited route of the app, with a request that does not succeed (the limit counts every attempt). */
const ROUTES = [
  { name: 'POST /auth/login', limit: 5, send: () => request(ctx().app).post('/auth/login').send({ email: uniqueEmail('limit'), password: 'wrong-password' }) },
  { name: 'POST /auth/register', limit: 3, send: () => request(ctx().app).post('/auth/register').send({ email: 'not-an-email', password: 'x' }) },
  { name: 'POST /auth/seed-admin', limit: 2, send: () => request(ctx().app).post('/auth/seed-admin').send({ email: 'not-an-email' }) },
  { name: 'POST /auth/refresh', limit: 60, send: () => request(ctx().app).post('/auth/refresh') },
  { name: 'POST /auth/request-password-reset', limit: 3, send: () => request(ctx().app).post('/auth/request-password-reset').send({ email: 'not-an-email' }) },
];

describe('rate limits on the app\'s routes', () => {
  for (const route of ROUTES) {
    it(`when ${route.name} is called ${route.limit} times, then every answer has the X-RateLimit headers and the next is 429 with Retry-After`, async () => {
      for (let i = 0; i < route.limit; i++) {
        const res = await route.send();
        assert.notEqual(res.status, 429);
        assert.equal(res.headers['x-ratelimit-limit'], String(route.limit));
        assert.equal(res.headers['x-ratelimit-remaining'], String(route.limit - i - 1));
        assert.match(res.headers['x-ratelimit-reset'], /^\d{10}$/);
      }

      const limited = await route.send();

      assert.equal(limited.status, 429);
      assert.deepEqual(limited.body, TOO_MANY);
      assert.match(limited.headers['retry-after'], /^\d+$/);
      assert.equal(limited.headers['x-ratelimit-remaining'], '0');
    });
  }
});
