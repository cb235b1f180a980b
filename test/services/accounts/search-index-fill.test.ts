import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import request from 'supertest';
import { Op } from 'sequelize';
import { ctx, sqlSentDuring, uniqueEmail } from '../../support/context';
import { createUserWithToken } from '../../support/users';
import { assertIndexed, indexed } from '../../support/search-index';
import { createContainer } from '../../../src/container';
import { checkImportRecord } from '../../../src/schemas/user-transfer.schemas';
import { createUserImport } from '../../../src/services/user-transfer/user-import';

/**
 * An import's users are written without their search trigrams, which the fill writes afterwards (migration
 * 20261128007000, src/services/accounts/search-index-fill.ts). Meanwhile the search must still find exactly the
 * users whose text holds the term, in the list's order; afterwards the index must hold exactly their trigrams,
 * whatever happened to them in between and however many instances filled at once.
 */
describe('search index fill after an import', function () {
  this.timeout(60_000);
  let admin: { token: string };

  before(async () => {
    admin = await createUserWithToken('admin');
  });

  const HOUR_MS = 3_600_000;
  const services = () => {
    const c = ctx();
    return createContainer({ config: c.config, logger: c.logger, sequelize: c.sequelize, models: c.models, store: c.store });
  };

  /** Imports the records as the API does (one container's import), and answers the new users' ids in record order. */
  async function imported(records: Array<{ email: string; firstName?: string; createdAt?: string }>): Promise<string[]> {
    const c = services();
    const userImport = createUserImport({ ...c, credentials: c.credentialSet, checkRecord: checkImportRecord });
    const summary = await userImport.importUsers([Buffer.from(records.map((record) => JSON.stringify(record)).join('\n'))], { format: 'ndjson', mode: 'create' }, { actor: null, context: { ip: null, userAgent: 'test' } });
    assert.equal(summary.created, records.length, JSON.stringify(summary));
    const users = await ctx().models.User.findAll({ where: { email: records.map((record) => record.email) }, attributes: ['id', 'email'] });
    return records.map((record) => users.find((user) => user.email === record.email)!.id);
  }

  const pendingOf = async (ids: string[]) => (await ctx().models.User.findAll({ where: { id: ids, searchPending: true }, attributes: ['id'] })).map((user) => user.id).sort();

  async function searched(q: string, paging: { page?: number; limit?: number } = {}): Promise<string[]> {
    const res = await request(ctx().app).get('/api/users').query({ q, limit: paging.limit ?? 100, page: paging.page ?? 1 }).set({ Authorization: `Bearer ${admin.token}` });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.users.map((user: { id: string }) => user.id);
  }

  it('when users are imported, then the search finds them at once, before their trigrams exist; the fill writes exactly those trigrams and clears the flag', async () => {
    const tag = crypto.randomBytes(4).toString('hex');
    const ids = await imported(['a', 'b', 'c'].map((x) => ({ email: uniqueEmail(`fill-${x}`), firstName: `Pend${tag}${x}` })));
    const signedUp = await createUserWithToken('viewer', { firstName: `Pend${tag}z` });

    assert.deepEqual(await pendingOf(ids), [...ids].sort(), 'imported users are pending');
    assert.deepEqual(await indexed(ids), [], 'and have no trigrams yet');
    await assertIndexed([signedUp.user.id], 'a user created one at a time is indexed by the trigger, as before');
    // The tag is random: no indexed user holds its trigrams but the one signed up, so both ways are read.
    assert.deepEqual((await searched(`pend${tag}`)).sort(), [...ids, signedUp.user.id].sort());
    assert.deepEqual(await searched(`${tag}b`), [ids[1]], 'a term only a pending user holds');
    // Pending users are read newest first through their own index, never by a scan of the users.
    const statements = await sqlSentDuring(() => searched(`pend${tag}`));
    const merged = statements.find((sql) => sql.includes('user_search_grams g0') && sql.includes('search_pending = 1'));
    assert.ok(merged, 'one statement reads both ways');
    const [plan] = await ctx().sequelize.query(`${ctx().dialect === 'sqlite' ? 'EXPLAIN QUERY PLAN' : 'EXPLAIN'} ${merged}`);
    assert.match(JSON.stringify(plan), /users_search_pending_created_at_id/);

    assert.ok((await services().searchIndex.fill()) >= ids.length);
    assert.deepEqual(await pendingOf(ids), []);
    await assertIndexed(ids, 'after the fill');
    assert.deepEqual((await searched(`pend${tag}`)).sort(), [...ids, signedUp.user.id].sort());
  });

  it('when a pending user is renamed or deleted before the fill, then the search follows the change and the fill writes the trigrams of the text it finds', async () => {
    const tag = crypto.randomBytes(4).toString('hex');
    const [renamed, deleted] = await imported(['r', 'd'].map((x) => ({ email: uniqueEmail(`fill-${x}`), firstName: `Old${tag}${x}` })));
    const { models } = ctx();
    await models.User.update({ firstName: `New${tag}r` }, { where: { id: renamed } });
    await models.User.destroy({ where: { id: deleted } });

    assert.deepEqual(await searched(`old${tag}`), []);
    assert.deepEqual(await searched(`new${tag}`), [renamed]);
    await services().searchIndex.fill();
    await assertIndexed([renamed], 'the new text, once');
    assert.deepEqual(await indexed([deleted]), [], 'nothing for a deleted user');
    assert.deepEqual(await searched(`new${tag}`), [renamed]);
  });

  it('when the fill is asked for during an import, then it waits, and fills once the import has ended', async () => {
    const c = services();
    let ids: string[] = [];
    await c.searchIndex.during(async () => {
      assert.equal(await c.searchIndex.fill(), 0, 'held while an import runs here');
      ids = await imported(['h1', 'h2'].map((x) => ({ email: uniqueEmail(`fill-${x}`), firstName: `Held${x}` })));
    });
    assert.ok((await c.searchIndex.fill()) >= ids.length);
    assert.deepEqual(await pendingOf(ids), []);
    await assertIndexed(ids, 'after the import ended');
  });

  it('when two instances fill at once, then every pending user is indexed exactly and cleared, with no failure', async () => {
    const ids = await imported(Array.from({ length: 40 }, (_, at) => ({ email: uniqueEmail(`fill-race${at}`), firstName: `Race${at}` })));
    const filled = await Promise.all([services().searchIndex.fill(), services().searchIndex.fill()]);
    assert.ok(filled[0] + filled[1] >= ids.length, `filled ${filled}`);
    assert.deepEqual(await pendingOf(ids), []);
    await assertIndexed(ids, 'after two fills at once');
  });

  it('when a search matches pending and indexed users, then its pages hold them newest first, each once', async () => {
    const tag = crypto.randomBytes(4).toString('hex');
    const at = (hour: number) => new Date(Date.UTC(2022, 0, 1) + hour * HOUR_MS).toISOString();
    const odd = await imported([1, 3, 5].map((hour) => ({ email: uniqueEmail(`fill-o${hour}`), firstName: `Page${tag}`, createdAt: at(hour) })));
    await services().searchIndex.fill();
    const even = await imported([2, 4].map((hour) => ({ email: uniqueEmail(`fill-e${hour}`), firstName: `Page${tag}`, createdAt: at(hour) })));
    assert.deepEqual(await pendingOf([...odd, ...even]), [...even].sort(), 'hours 2 and 4 pending, 1, 3 and 5 indexed');

    const newestFirst = [odd[2], even[1], odd[1], even[0], odd[0]];
    assert.deepEqual(await searched(`page${tag}`), newestFirst);
    const pages = [];
    for (const page of [1, 2, 3]) pages.push(await searched(`page${tag}`, { page, limit: 2 }));
    assert.deepEqual(pages, [newestFirst.slice(0, 2), newestFirst.slice(2, 4), newestFirst.slice(4)]);
    assert.equal(await ctx().models.User.count({ where: { id: { [Op.in]: newestFirst } } }), 5);
    await services().searchIndex.fill();
  });
});
