import assert from 'node:assert/strict';
import request from 'supertest';
import { ctx } from '../support/context';
import { createUserWithToken } from '../support/users';

describe('activity log API: time range', () => {
  it('when since and until are given, then only the entries in [since, until) are listed; a bad time is a 400 at its field', async () => {
    const { user, token } = await createUserWithToken('admin');
    const { models } = ctx();
    const at = (iso: string) => models.ActivityLog.create({ action: 'settings.updated', userId: user.id, email: user.email, ip: null, userAgent: null, details: null, createdAt: new Date(iso) } as never);
    await at('2020-01-01T09:59:59.000Z');
    await at('2020-01-01T10:00:00.000Z');
    await at('2020-01-01T10:59:59.000Z');
    await at('2020-01-01T11:00:00.000Z');
    const get = (query: string) => request(ctx().app).get(`/api/activity-logs?userId=${user.id}${query}`).set('Authorization', `Bearer ${token}`);

    const res = await get('&since=2020-01-01T10:00:00Z&until=2020-01-01T11:00:00Z');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.logs.map((l: { createdAt: string }) => l.createdAt), ['2020-01-01T10:59:59.000Z', '2020-01-01T10:00:00.000Z']);
    assert.equal(res.body.total, 2);
    assert.equal((await get('&since=2020-01-01T11:00:00Z')).body.total, 1);

    const bad = await get('&since=yesterday');
    assert.equal(bad.status, 400);
    assert.match(JSON.stringify(bad.body), /since/);
  });
});
