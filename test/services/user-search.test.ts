import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import request from 'supertest';
import { Op } from 'sequelize';
import { ctx, sqlSentDuring } from '../support/context';
import { createTestUser, createUserWithToken } from '../support/users';
import { assertIndexed, indexed } from '../support/search-index';
import type { User } from '../../src/models';

/**
 * The trigram index behind the user search (migration 20261126600000, src/services/user-search.ts). The
 * index is kept by database triggers, so it is checked against the users' text after every kind of write
 * (the API, the model, a static update, plain SQL as a seeder writes, a delete), and the search is checked
 * against the plain meaning of `q` (a substring of email, username or a name) for rare, dense, absent and
 * accented terms and LIKE's own wildcards.
 */
describe('user search through the trigram index', function () {
  this.timeout(60_000);
  const tag = crypto.randomBytes(4).toString('hex');
  let admin: { token: string };

  before(async () => {
    admin = await createUserWithToken('admin');
  });

  const api = () => request(ctx().app);
  const bearer = () => ({ Authorization: `Bearer ${admin.token}` });

  async function searchIds(q: string): Promise<string[]> {
    const res = await api().get('/api/users').query({ q, limit: 100 }).set(bearer());
    assert.equal(res.status, 200, `${q}: ${JSON.stringify(res.body)}`);
    return res.body.users.map((user: { id: string }) => user.id).sort();
  }

  it('when users are created, renamed, re-addressed, changed otherwise and deleted, by any writer, then the index holds exactly the trigrams of their text', async () => {
    const { models, sequelize } = ctx();
    const created = await api().post('/api/users').set(bearer()).send({
      email: `api-${tag}@example.test`, username: `api_${tag}`, password: 'Correct-Horse-9-Battery', role: 'viewer', firstName: 'Zoë', lastName: `Ärger${tag}`,
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const viaApi = created.body.user.id as string;
    const viaModel = (await createTestUser('viewer', { email: `model-${tag}@example.test`, firstName: '名前テスト', lastName: null })).id;
    // As a sequelize-cli seeder writes: plain SQL, no model, no hooks.
    const viaSql = crypto.randomUUID();
    const now = new Date();
    await sequelize.getQueryInterface().bulkInsert('users', [{
      id: viaSql, email: `seeded-${tag}@example.test`, username: `seeded_${tag}`, first_name: 'Seeded', last_name: 'Row', role: 'viewer', active: true, token_epoch: 0, created_at: now, updated_at: now,
    }]);
    const ids = [viaApi, viaModel, viaSql];
    await assertIndexed(ids, 'after creation');
    assert.deepEqual(await searchIds(`seeded-${tag}`), [viaSql], 'a seeded user is found');

    const renamed = await api().patch(`/api/users/${viaApi}`).set(bearer()).send({ firstName: `Renamed${tag}` });
    assert.equal(renamed.status, 200);
    await assertIndexed(ids, 'after a rename');
    assert.deepEqual(await searchIds(`renamed${tag}`), [viaApi]);
    assert.deepEqual(await searchIds(`Zoë`).then((found) => found.filter((id) => ids.includes(id))), [], 'the old name is gone');

    await models.User.update({ email: `moved-${tag}@example.test` }, { where: { id: viaModel } });
    await assertIndexed(ids, 'after a change of address');
    assert.deepEqual(await searchIds(`moved-${tag}`), [viaModel]);

    await models.User.update({ active: false }, { where: { id: viaSql } });
    await assertIndexed(ids, 'after a change of another column');

    assert.equal((await api().delete(`/api/users/${viaApi}`).set(bearer())).status, 204);
    assert.deepEqual(await indexed([viaApi]), [], 'a deleted user leaves no trigram');
    await models.User.destroy({ where: { id: { [Op.in]: [viaModel, viaSql] } } });
    assert.deepEqual(await indexed(ids), []);
  });

  it('when searching, then the answer is every user whose email, username or a name holds the term, rare, dense, absent, accented or with wildcards', async () => {
    const users: User[] = [];
    for (let i = 0; i < 24; i++) {
      const first = i % 3 === 0 ? `Anna${tag}` : `Bo${tag}x${i}`;
      users.push(await createTestUser('viewer', { email: `m${i}-${tag}@mail.test`, username: i % 4 === 0 ? `u_${tag}_${i}` : `u${tag}${i}`, firstName: first, lastName: i === 5 ? `Ärger-${tag}` : `Lee${i % 2}` }));
    }
    const holds = (term: string) =>
      users.filter((user) => [user.email, user.username, user.firstName ?? '', user.lastName ?? ''].some((field) => field.toLowerCase().includes(term.toLowerCase()))).map((user) => user.id).sort();
    const terms = [
      tag, // every one of them: their emails, usernames and names
      `anna${tag}`, `ANNA${tag.toUpperCase()}`, // a third, either case
      `m17-${tag}`, // one
      `${tag}@mail`, // across the email's parts
      `_${tag}_`, // `_` taken literally, not as LIKE's one-character wildcard
      `%${tag}`, `${tag}%`, // `%` taken literally: nobody
      `Ärger-${tag}`, // accented, in its own case
      `x${tag}`, // absent
      `bo${tag}x1`, // a prefix of several (x1, x10…x19)
    ];
    for (const term of terms) assert.deepEqual(await searchIds(term), holds(term), term);
  });

  it('when a usual (printable ASCII) term is searched, then it is lowered without a round trip; other text is lowered by the database', async () => {
    const lowering = (statements: string[]) => statements.filter((sql) => /^SELECT (CAST\()?LOWER\(/i.test(sql));
    assert.deepEqual(lowering(await sqlSentDuring(() => searchIds(`ANNA${tag}`))), []);
    // Other text is lowered by the database, as the triggers lowered the users' text.
    assert.equal(lowering(await sqlSentDuring(() => searchIds(`Ärger-${tag}`))).length, 1);
  });

  it('when the third rarest trigram is held by few more users than the rarest, then it is joined too; when by many more, it is not', async () => {
    // Letters outside hex, so no other test's random tags share these trigrams.
    const rare = await createTestUser('viewer', { lastName: `Rvxwt${tag}` }); // rvx, vxw: this user; xwt: three users
    for (let i = 0; i < 2; i++) await createTestUser('viewer', { lastName: `Kxwt${tag}${i}` });
    const alone = await createTestUser('viewer', { lastName: `Hmzqk${tag}` }); // hmz, mzq: this user; zqk: nine
    for (let i = 0; i < 8; i++) await createTestUser('viewer', { lastName: `Jzqk${tag}${i}` });
    const joined = async (term: string, expectedId: string) => {
      let found: string[] = [];
      const statements = await sqlSentDuring(async () => {
        found = await searchIds(term);
      });
      assert.deepEqual(found, [expectedId], term);
      const search = statements.find((sql) => sql.includes('user_search_grams g0'));
      assert.ok(search, `the trigram search statement for ${term}`);
      return (search.match(/user_search_grams g\d/g) ?? []).length;
    };
    assert.equal(await joined('rvxwt', rare.id), 3);
    assert.equal(await joined('hmzqk', alone.id), 2);
  });
});
