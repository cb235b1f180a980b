import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import request from 'supertest';
import { ctx } from '../support/context';
import { createTestUser, createUserWithToken } from '../support/users';
import { createActivityService } from '../../src/services/operations/activity.service';

const LOG_FIELDS = ['action', 'createdAt', 'details', 'email', 'id', 'ip', 'userAgent', 'userId'];

describe('activity log API', () => {
  let admin: { id: string; email: string; token: string };

  before(async () => {
    const { user, token } = await createUserWithToken('admin');
    admin = { id: user.id, email: user.email, token };
  });

  const get = (query = '') => request(ctx().app).get(`/api/activity-logs${query}`).set('Authorization', `Bearer ${admin.token}`);

  it('when an admin changes a user, then the entry has actor, IP, user agent, time and the change, newest first', async () => {
    const target = await createTestUser('viewer');
    await request(ctx().app)
      .patch(`/api/users/${target.id}`)
      .set('Authorization', `Bearer ${admin.token}`)
      .set('User-Agent', 'activity-test/1.0')
      .send({ role: 'author' })
      .expect(200);
    const res = await get(`?action=user.updated&userId=${admin.id}`);
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body).sort(), ['logs', 'total']);
    const [latest] = res.body.logs;
    assert.deepEqual(Object.keys(latest).sort(), LOG_FIELDS);
    assert.equal(latest.action, 'user.updated');
    assert.equal(latest.userId, admin.id);
    assert.equal(latest.email, admin.email);
    assert.equal(latest.userAgent, 'activity-test/1.0');
    assert.ok(latest.ip);
    assert.ok(!Number.isNaN(Date.parse(latest.createdAt)));
    assert.deepEqual(latest.details.changes, { role: { from: 'viewer', to: 'author' } });
  });

  it('when the service records entries, then they read back exactly: time, quotes in details, and null where nothing was given', async () => {
    const { sequelize, models, logger } = ctx();
    const activity = createActivityService({ sequelize, models, logger });
    const userId = crypto.randomUUID();
    const before = Math.floor(Date.now() / 1000) * 1000; // MariaDB's DATETIME keeps whole seconds
    await activity.record({ action: 'auth.login', userId, email: 'rec@example.com', details: { method: 'password', note: "it's; DROP TABLE users --" } }, { ip: '203.0.113.7', userAgent: 'ua/1' });
    await activity.record({ action: 'auth.logout', userId }, { ip: null, userAgent: null });
    const res = await get(`?userId=${userId}`);
    const [logout, login] = res.body.logs;
    assert.deepEqual({ ...login, id: 0, createdAt: 0 }, { id: 0, createdAt: 0, action: 'auth.login', userId, email: 'rec@example.com', ip: '203.0.113.7', userAgent: 'ua/1', details: { method: 'password', note: "it's; DROP TABLE users --" } });
    assert.deepEqual({ ...logout, id: 0, createdAt: 0 }, { id: 0, createdAt: 0, action: 'auth.logout', userId, email: null, ip: null, userAgent: null, details: null });
    for (const entry of [login, logout]) assert.ok(Date.parse(entry.createdAt) >= before && Date.parse(entry.createdAt) <= Date.now(), entry.createdAt);
    assert.ok(logout.id > login.id);
  });

  it('when filtered and paged, then only matching entries, newest first, with their total', async () => {
    const { models } = ctx();
    const userId = crypto.randomUUID();
    for (let i = 0; i < 5; i++) {
      await models.ActivityLog.create({ action: i % 2 ? 'auth.login' : 'auth.logout', userId, email: null, ip: '203.0.113.9', userAgent: null, details: { n: i } });
    }
    const all = await get(`?userId=${userId}&limit=2`);
    assert.equal(all.body.total, 5);
    assert.deepEqual(all.body.logs.map((log: { details: { n: number } }) => log.details.n), [4, 3]);
    const page3 = await get(`?userId=${userId}&limit=2&page=3`);
    assert.deepEqual(page3.body.logs.map((log: { details: { n: number } }) => log.details.n), [0]);
    const logins = await get(`?userId=${userId}&action=auth.login`);
    assert.equal(logins.body.total, 2);
    assert.ok(logins.body.logs.every((log: { action: string }) => log.action === 'auth.login'));
    const nobody = await get(`?userId=${encodeURIComponent("' OR 1=1 --")}`);
    assert.equal(nobody.status, 200);
    assert.equal(nobody.body.total, 0);
  });

  it('when paging or filters are bad, then 400', async () => {
    for (const query of ['?limit=0', '?limit=101', '?limit=-1', '?limit=abc', '?page=0', '?action=auth.hack', '?action=', '?ip=1.2.3.4']) {
      const res = await get(query);
      assert.equal(res.status, 400, query);
      assert.equal(res.body.error, 'Validation failed');
    }
  });

  for (const role of ['editor', 'author', 'viewer'] as const) {
    it(`when a ${role} asks for the log, then 403`, async () => {
      const { token } = await createUserWithToken(role);
      const res = await request(ctx().app).get('/api/activity-logs').set('Authorization', `Bearer ${token}`);
      assert.equal(res.status, 403);
      assert.deepEqual(res.body, { error: 'Insufficient permissions' });
    });
  }

  it('when nobody is signed in, then 401, and a browser goes to the sign-in page', async () => {
    assert.equal((await request(ctx().app).get('/api/activity-logs')).status, 401);
    const browser = await request(ctx().app).get('/api/activity-logs').set('Accept', 'text/html');
    assert.equal(browser.status, 302);
    assert.match(browser.headers.location, /^\/auth\/login\?notice=sign_in_required$/);
  });
});
