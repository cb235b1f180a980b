import assert from 'node:assert/strict';
import request from 'supertest';
import { ctx } from '../support/context';
import { keptValues, notice, withNotice } from '../../src/http/pages';

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

describe('pages: notices carried by a redirect', () => {
  it('when a notice is added to a path, then it is encoded, joins a query the path has, and reads back as sent', () => {
    const text = 'Saved: 50% & more?#';
    assert.equal(withNotice('/admin/users', 'message', text), `/admin/users?message=${encodeURIComponent(text)}`);
    const withQuery = withNotice('/admin/users?page=2', 'error', text);
    assert.equal(withQuery, `/admin/users?page=2&error=${encodeURIComponent(text)}`);
    const query = new URL(withQuery, 'http://localhost').searchParams;
    assert.equal(query.get('page'), '2');
    assert.equal(notice(query.get('error')), text);
  });
});
