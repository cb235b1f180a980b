import assert from 'node:assert/strict';
import request from 'supertest';
import { ctx } from '../support/context';
import { makeUser, tokenFor } from '../support/auth';

const NUL = { error: 'Request contains a NUL character' };

describe('body parsing: NUL characters', () => {
  it('when a path parameter or query value holds %00, then 400 before any query runs', async () => {
    const admin = await makeUser({ role: 'admin' });
    const token = await tokenFor(admin);
    for (const path of ['/api/content/%00', '/api/users/a%00b', '/api/users?q=%00', '/auth/login?redirect=%00']) {
      const res = await request(ctx().app).get(path).set('Authorization', `Bearer ${token}`).set('Accept', 'application/json');
      assert.equal(res.status, 400, path);
      assert.deepEqual(res.body, NUL);
    }
  });

  it('when a body holds NUL in a value, a nested value or a key, then 400', async () => {
    const bodies = ['{"email":"a\\u0000@b.test","password":"x"}', '{"email":"a@b.test","password":["x",{"y":"\\u0000"}]}', '{"e\\u0000mail":"a@b.test"}'];
    for (const body of bodies) {
      const res = await request(ctx().app).post('/auth/login').set('Content-Type', 'application/json').send(body);
      assert.equal(res.status, 400, body);
      assert.deepEqual(res.body, NUL);
    }
    const form = await request(ctx().app).post('/auth/login').type('form').set('Accept', 'application/json').send('email=a%00%40b.test&password=x');
    assert.equal(form.status, 400);
  });

  it('when a body nests tens of thousands of levels, then it is refused without a crash', async () => {
    const deep = `{"email":${'['.repeat(40_000)}${']'.repeat(40_000)},"password":"x"}`;
    const res = await request(ctx().app).post('/auth/login').set('Content-Type', 'application/json').send(deep);
    assert.ok(res.status >= 400 && res.status < 500, String(res.status));
  });
});
