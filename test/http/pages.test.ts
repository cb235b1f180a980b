import assert from 'node:assert/strict';
import request from 'supertest';
import { ctx } from '../support/context';
import { keptValues } from '../../src/http/pages';

describe('pages: values drawn back into a form', () => {
  it('when a posted value shadows Object.prototype keys, then those keys are dropped and the rest kept', () => {
    const body = JSON.parse('{"email":{"toString":{"admin":true},"valueOf":1,"city":"Oslo"},"__proto__":{"x":1},"constructor":"c","username":"ann","password":"secret-1","tags":["a",{"toString":2}]}');
    assert.deepEqual(keptValues(body), { email: { city: 'Oslo' }, username: 'ann', tags: ['a', {}] });
  });

  it('when a form page is redrawn for such a body, then it is a 4xx page, not a 500', async () => {
    const hostile = '{"email":{"toString":{"admin":true}},"password":{"valueOf":[]},"code":{"toString":"x"},"username":{"toString":1}}';
    for (const path of ['/auth/login', '/auth/register', '/auth/otp/request', '/auth/otp/verify', '/auth/request-password-reset', '/auth/reset-password']) {
      const res = await request(ctx().app).post(path).set('Content-Type', 'application/json').set('Accept', 'text/html').set('X-Forwarded-For', '192.0.2.1').send(hostile);
      assert.ok(res.status >= 400 && res.status < 500, `${path}: ${res.status}`);
      assert.match(res.headers['content-type'], /text\/html/, path);
    }
  });
});
