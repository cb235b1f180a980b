import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import request from 'supertest';
import { Op } from 'sequelize';
import { ctx } from '../support/context';
import { createUserWithToken } from '../support/users';
import { SEARCH_TOTAL_LIMIT, TOTAL_EXACT_HEADER, TOTAL_LIMIT } from '../../src/services/accounts/user-list';

/**
 * Totals past the counting limits (issue 34: a million users). Enough real rows are inserted to pass each
 * limit, so what is asserted is what the database answered, not a lowered constant.
 */
describe('user list totals past the counting limits', function () {
  this.timeout(120_000);
  const tag = crypto.randomBytes(4).toString('hex');
  const inserted: string[] = [];
  let admin: { token: string; cookie: string };

  /** `count` users whose first name holds the tag, one second apart, the newest last; answers their ids. */
  async function insertUsers(count: number, label: string): Promise<string[]> {
    const { models } = ctx();
    const base = Date.now() - count * 1000;
    const ids: string[] = [];
    for (let offset = 0; offset < count; offset += 1000) {
      const rows = [];
      for (let i = offset; i < Math.min(count, offset + 1000); i++) {
        const id = crypto.randomUUID();
        ids.push(id);
        const at = new Date(base + i * 1000);
        rows.push({ id, email: `${label}-${i}-${tag}@example.test`, username: `${label}_${i}_${tag}`, firstName: `${label}${tag}`, role: 'viewer' as const, createdAt: at, updatedAt: at });
      }
      await models.User.bulkCreate(rows, { hooks: false, validate: false });
    }
    inserted.push(...ids);
    return ids;
  }

  before(async () => {
    const created = await createUserWithToken('admin');
    admin = { token: created.token, cookie: `auth_token=${created.token}` };
  });

  after(async () => {
    const { models } = ctx();
    for (let i = 0; i < inserted.length; i += 1000) await models.User.destroy({ where: { id: { [Op.in]: inserted.slice(i, i + 1000) } } });
  });

  const get = (path: string) => request(ctx().app).get(path).set('Authorization', `Bearer ${admin.token}`);

  it('when a search matches more users than it counts, then total is the limit, the header says so, and the page is still the newest matches', async () => {
    const ids = await insertUsers(SEARCH_TOTAL_LIMIT + 25, 'many');
    const res = await get(`/api/users?q=MANY${tag}&limit=20&page=2`);
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body).sort(), ['limit', 'page', 'total', 'users'], 'the body keeps its shape');
    assert.equal(res.body.total, SEARCH_TOTAL_LIMIT);
    assert.equal(res.headers[TOTAL_EXACT_HEADER.toLowerCase()], 'false');
    const newestFirst = [...ids].reverse();
    assert.deepEqual(res.body.users.map((user: { id: string }) => user.id), newestFirst.slice(20, 40));
    // A page past the matches read for the total is read down to, still newest first.
    const lastPage = Math.ceil(ids.length / 20);
    const deep = await get(`/api/users?q=many${tag}&limit=20&page=${lastPage}`);
    assert.equal(deep.status, 200);
    assert.deepEqual(deep.body.users.map((user: { id: string }) => user.id), newestFirst.slice((lastPage - 1) * 20));

    const page = await request(ctx().app).get(`/admin/users?q=many${tag}`).set('Cookie', admin.cookie).set('Accept', 'text/html');
    assert.equal(page.status, 200);
    assert.match(page.text, new RegExp(`More than ${SEARCH_TOTAL_LIMIT.toLocaleString('en')} users found`));
    assert.match(page.text, /Page 1 of \d+ or more/);
  });

  it('when a search matches no more than it counts, then total is exact and the header says true', async () => {
    const ids = await insertUsers(30, 'few');
    const res = await get(`/api/users?q=few${tag}&limit=100`);
    assert.equal(res.status, 200);
    assert.equal(res.body.total, 30);
    assert.equal(res.headers[TOTAL_EXACT_HEADER.toLowerCase()], 'true');
    assert.deepEqual(res.body.users.map((user: { id: string }) => user.id), [...ids].reverse());
  });

  it('when more users exist than the list counts, then the unfiltered total is the limit, and a filter that matches few is exact', async () => {
    const { models } = ctx();
    const missing = TOTAL_LIMIT + 1 - (await models.User.count());
    if (missing > 0) await insertUsers(missing, 'bulk');
    const res = await get('/api/users?limit=5');
    assert.equal(res.status, 200);
    assert.equal(res.body.total, TOTAL_LIMIT);
    assert.equal(res.headers[TOTAL_EXACT_HEADER.toLowerCase()], 'false');
    const newest = await models.User.findAll({ attributes: ['id'], order: [['createdAt', 'DESC'], ['id', 'DESC']], limit: 5 });
    assert.deepEqual(res.body.users.map((user: { id: string }) => user.id), newest.map((user) => user.id));

    const admins = await get('/api/users?role=admin&limit=5');
    assert.equal(admins.body.total, await models.User.count({ where: { role: 'admin' } }));
    assert.equal(admins.headers[TOTAL_EXACT_HEADER.toLowerCase()], 'true');

    // The bounded count names columns, not attributes (its query generator is called directly).
    const verified = await get('/api/users?verified=true&limit=5');
    assert.equal(verified.status, 200, JSON.stringify(verified.body));
    assert.equal(verified.body.total, await models.User.count({ where: { emailVerifiedAt: { [Op.ne]: null } } }));
  });
});
