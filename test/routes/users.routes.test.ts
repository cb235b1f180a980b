import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import request from 'supertest';
import { ctx, resetDatabase, sqlSentDuring, uniqueEmail } from '../support/context';
import { createTestUser, createUserWithToken, tokenFor } from '../support/users';
import type { Role } from '../../src/models';
import { createContainer } from '../../src/container';
import { searchIndexOf } from '../../src/app';
import { AppError } from '../../src/http/app-error';

const USER_FIELDS = ['active', 'createdAt', 'email', 'emailVerified', 'firstName', 'id', 'lastName', 'role', 'username'];

function api() {
  return request(ctx().app);
}

/** Row counts of the tables an admin request could write to. */
async function rowCounts(): Promise<Record<string, number>> {
  const { models } = ctx();
  return {
    users: await models.User.count(),
    profiles: await models.UserProfile.count(),
    activity: await models.ActivityLog.count(),
  };
}

describe('users API', () => {
  let admin: { id: string; email: string; token: string };

  beforeEach(async () => {
    const created = await createUserWithToken('admin');
    admin = { id: created.user.id, email: created.user.email, token: created.token };
  });

  const as = (token: string) => ({ Authorization: `Bearer ${token}` });

  describe('list', () => {
    it('when an admin lists users, then a page of public user objects with total, page and limit', async () => {
      await createTestUser('viewer');
      const res = await api().get('/api/users?page=1&limit=2').set(as(admin.token));
      assert.equal(res.status, 200);
      assert.deepEqual(Object.keys(res.body).sort(), ['limit', 'page', 'total', 'users']);
      assert.equal(res.body.page, 1);
      assert.equal(res.body.limit, 2);
      assert.equal(res.body.users.length, 2);
      assert.ok(res.body.total >= 2);
      for (const user of res.body.users) assert.deepEqual(Object.keys(user).sort(), USER_FIELDS);
      assert.ok(!JSON.stringify(res.body).includes('pbkdf2'));
    });

    it('when no paging is given, then page 1 and 20 per page', async () => {
      const res = await api().get('/api/users').set(as(admin.token));
      assert.equal(res.status, 200);
      assert.equal(res.body.page, 1);
      assert.equal(res.body.limit, 20);
    });

    it('when paging is out of bounds or not a number, then 400 naming the parameter', async () => {
      const cases: Array<[string, string]> = [
        ['limit=0', 'limit'],
        ['limit=101', 'limit'],
        ['limit=-1', 'limit'],
        ['limit=abc', 'limit'],
        ['limit=1.5', 'limit'],
        ['page=0', 'page'],
        ['page=-3', 'page'],
        ['page=abc', 'page'],
        ['page=99999999999999999999', 'page'],
        ['role=superuser', 'role'],
        ['sort=email', 'sort'],
        [`q=${'x'.repeat(500)}`, 'q'],
      ];
      for (const [query, field] of cases) {
        const res = await api().get(`/api/users?${query}`).set(as(admin.token));
        assert.equal(res.status, 400, query);
        assert.equal(res.body.error, 'Validation failed');
        assert.ok(res.body.errors[field], `${query} names ${field}: ${JSON.stringify(res.body)}`);
      }
    });

    it('when the limit is the maximum, then it is accepted', async () => {
      const res = await api().get('/api/users?limit=100&page=2').set(as(admin.token));
      assert.equal(res.status, 200);
      assert.equal(res.body.limit, 100);
    });

    it('when filtered by role, then only that role is listed and total counts only them', async () => {
      const { models } = ctx();
      await createTestUser('author');
      const res = await api().get('/api/users?role=author&limit=100').set(as(admin.token));
      assert.equal(res.status, 200);
      assert.ok(res.body.users.length > 0);
      assert.ok(res.body.users.every((user: { role: Role }) => user.role === 'author'));
      assert.equal(res.body.total, await models.User.count({ where: { role: 'author' } }));
    });

    it('when searching, then email, username and names match case-insensitively', async () => {
      const tag = crypto.randomBytes(4).toString('hex');
      const byEmail = await createTestUser('viewer', { email: `findme-${tag}@example.test` });
      const byUsername = await createTestUser('viewer', { username: `Uname_${tag}` });
      const byFirst = await createTestUser('viewer', { firstName: `First${tag}` });
      const byLast = await createTestUser('editor', { lastName: `Last${tag}` });
      const res = await api().get(`/api/users?q=${tag.toUpperCase()}&limit=100`).set(as(admin.token));
      assert.equal(res.status, 200);
      const ids = res.body.users.map((user: { id: string }) => user.id).sort();
      assert.deepEqual(ids, [byEmail.id, byUsername.id, byFirst.id, byLast.id].sort());
      assert.equal(res.body.total, 4);

      const filtered = await api().get(`/api/users?q=${tag}&role=editor`).set(as(admin.token));
      assert.deepEqual(filtered.body.users.map((user: { id: string }) => user.id), [byLast.id]);
    });

    it('when a search spans pages, then they come newest first, each user once, with the total of all matches', async () => {
      const tag = crypto.randomBytes(4).toString('hex');
      const created = [];
      for (let i = 0; i < 5; i++) created.push(await createTestUser('viewer', { firstName: `Paged${tag}${i}` }));
      await ctx().models.User.update({ createdAt: new Date('2026-01-01T00:00:00Z') }, { where: { id: [created[1].id, created[2].id] } });

      const pages = [];
      for (const page of [1, 2, 3]) pages.push(await api().get(`/api/users?q=paged${tag}&limit=2&page=${page}`).set(as(admin.token)));

      const everyone = await api().get(`/api/users?q=paged${tag}&limit=100`).set(as(admin.token));
      const expected = [...everyone.body.users].sort((a: { createdAt: string; id: string }, b: { createdAt: string; id: string }) =>
        b.createdAt.localeCompare(a.createdAt) || (b.id < a.id ? -1 : 1));
      assert.deepEqual(everyone.body.users.map((u: { id: string }) => u.id), expected.map((u: { id: string }) => u.id), 'newest first, then by id');
      assert.deepEqual(pages.map((res) => res.body.users.length), [2, 2, 1]);
      assert.deepEqual(pages.flatMap((res) => res.body.users.map((u: { id: string }) => u.id)), expected.map((u: { id: string }) => u.id));
      assert.ok(pages.every((res) => res.body.total === 5));
      assert.deepEqual(expected.slice(3).map((u: { id: string }) => u.id).sort(), [created[1].id, created[2].id].sort(), 'the older two come last');
    });

    it('when the search holds letters outside ASCII, then it matches them as letters, not as bytes of others', async () => {
      const tag = crypto.randomBytes(4).toString('hex');
      const muller = await createTestUser('viewer', { lastName: `Müller${tag}` });
      const plain = await createTestUser('viewer', { lastName: `Muller${tag}` });
      for (const q of [`müller${tag}`, `ü`]) {
        const res = await api().get(`/api/users?q=${encodeURIComponent(q)}&limit=100`).set(as(admin.token));
        assert.equal(res.status, 200, q);
        const ids = res.body.users.map((user: { id: string }) => user.id);
        assert.ok(ids.includes(muller.id) && !ids.includes(plain.id), q);
      }
    });

    it('when the search holds LIKE wildcards or the escape character, then they match literally', async () => {
      const tag = crypto.randomBytes(4).toString('hex');
      const literal = await createTestUser('viewer', { firstName: `${tag}%_!x` });
      await createTestUser('viewer', { firstName: `${tag}ab!x` });
      for (const q of [`${tag}%`, `${tag}%_`, `${tag}%_!`, '%_!x']) {
        const res = await api().get(`/api/users?q=${encodeURIComponent(q)}&limit=100`).set(as(admin.token));
        assert.equal(res.status, 200, q);
        assert.deepEqual(res.body.users.map((user: { id: string }) => user.id), [literal.id], q);
      }
    });

    it('when the search holds injection strings, then they are data: 200 with no match, nothing written', async () => {
      const before = await rowCounts();
      for (const q of ["' OR 1=1 --", '" OR ""="', "'; DROP TABLE users; --", '\\', "\\' OR 1=1 #", '%00', ') OR (1=1']) {
        const res = await api().get(`/api/users?q=${encodeURIComponent(q)}`).set(as(admin.token));
        assert.equal(res.status, 200, q);
        assert.equal(res.body.total, 0, q);
        assert.deepEqual(res.body.users, []);
      }
      assert.deepEqual(await rowCounts(), before);
    });

    it('when a query parameter is repeated, then 400 or a valid answer, never 500', async () => {
      for (const query of ['limit=1&limit=2', 'q=a&q=b', 'role=admin&role=viewer', 'page[x]=1']) {
        const res = await api().get(`/api/users?${query}`).set(as(admin.token));
        assert.ok(res.status === 200 || res.status === 400, `${query}: ${res.status}`);
      }
    });

    it('when searching, then the term\'s trigrams and the users holding them are read by key, newest first, never every row of a table or a sort', async () => {
      const { sequelize, dialect } = ctx();
      // No imported user waiting for its trigrams (search-index-fill.test.ts covers those): the index alone is read.
      await searchIndexOf(ctx().app).fill();
      const statements = await sqlSentDuring(async () => {
        const res = await api().get(`/api/users?q=${encodeURIComponent(admin.email.slice(0, 6))}`).set(as(admin.token));
        assert.equal(res.status, 200);
        assert.ok(res.body.users.some((user: { id: string }) => user.id === admin.id));
      });
      const search = statements.find((sql) => sql.startsWith('SELECT') && sql.includes('user_search_grams g0'));
      assert.ok(search, 'the trigram search statement');
      const [plan] = await sequelize.query(`${dialect === 'sqlite' ? 'EXPLAIN QUERY PLAN' : 'EXPLAIN'} ${search}`);
      const steps = plan as { detail?: string; table?: string; type?: string; key?: string }[];
      // Read in the index's creation order: never sorted afterwards.
      assert.doesNotMatch(JSON.stringify(steps), /filesort|TEMP B-TREE/i);
      if (dialect === 'sqlite') {
        assert.ok(steps.every((step) => /^SEARCH /.test(step.detail ?? '')), JSON.stringify(steps));
      } else {
        assert.ok(steps.every((step) => step.type !== 'ALL' && step.type !== 'index' && step.key === 'PRIMARY'), JSON.stringify(steps));
      }
    });

    it('when the term is one or two characters (no trigram), then the database reads the narrow search index, never every row', async () => {
      const { sequelize, dialect } = ctx();
      const statements = await sqlSentDuring(async () => {
        assert.equal((await api().get('/api/users?q=zq').set(as(admin.token))).status, 200);
      });
      const search = statements.find((sql) => sql.startsWith('SELECT') && sql.includes('search_text'));
      assert.ok(search, 'the search statement');
      const [plan] = await sequelize.query(`${dialect === 'sqlite' ? 'EXPLAIN QUERY PLAN' : 'EXPLAIN'} ${search}`);
      const used = JSON.stringify(plan);
      assert.match(used, /users_search_text_created_at_id/, used);
    });
  });

  describe('get', () => {
    it('when the user exists, then { user } without a hash', async () => {
      const target = await createTestUser('editor', { firstName: 'Ed', passwordHash: 'pbkdf2:10000:' + 'a'.repeat(32) + ':' + 'b'.repeat(64) });
      const res = await api().get(`/api/users/${target.id}`).set(as(admin.token));
      assert.equal(res.status, 200);
      assert.deepEqual(Object.keys(res.body), ['user']);
      assert.deepEqual(Object.keys(res.body.user).sort(), USER_FIELDS);
      assert.equal(res.body.user.firstName, 'Ed');
      assert.equal(res.body.user.active, true);
      assert.ok(!JSON.stringify(res.body).includes('pbkdf2'));
    });

    it('when the id is unknown or odd, then 404 (never 500)', async () => {
      for (const id of [crypto.randomUUID(), "1' OR '1'='1", 'x'.repeat(64)]) {
        const res = await api().get(`/api/users/${encodeURIComponent(id)}`).set(as(admin.token));
        assert.equal(res.status, 404, id);
        assert.deepEqual(res.body, { error: 'User not found' });
      }
      const tooLong = await api().get(`/api/users/${'x'.repeat(65)}`).set(as(admin.token));
      assert.equal(tooLong.status, 400);
    });
  });

  describe('create', () => {
    it('when an admin creates a user with a password, then 201 { user }, a profile row, a hash, and the activity is logged', async () => {
      const { models } = ctx();
      const email = uniqueEmail('made');
      const res = await api()
        .post('/api/users')
        .set(as(admin.token))
        .send({ email: `  ${email.toUpperCase()} `, password: 'a-good-password', firstName: 'Made', lastName: 'ByAdmin', role: 'editor' });
      assert.equal(res.status, 201);
      assert.deepEqual(Object.keys(res.body), ['user']);
      assert.deepEqual(Object.keys(res.body.user).sort(), USER_FIELDS);
      assert.equal(res.body.user.email, email);
      assert.equal(res.body.user.role, 'editor');
      assert.equal(res.body.user.username, email.split('@')[0]);
      const row = await models.User.findByPk(res.body.user.id);
      assert.match(row!.passwordHash!, /^pbkdf2:/);
      assert.ok(await models.UserProfile.findByPk(res.body.user.id));
      const log = await models.ActivityLog.findOne({ where: { action: 'user.created', userId: admin.id }, order: [['id', 'DESC']] });
      assert.equal(log?.email, admin.email);
      assert.equal(log?.details?.targetUserId, res.body.user.id);
      assert.ok(!JSON.stringify(log?.details).includes('a-good-password'));
    });

    it('when created without a password or role, then a passwordless viewer', async () => {
      const { models } = ctx();
      const res = await api().post('/api/users').set(as(admin.token)).send({ email: uniqueEmail('nopass'), username: 'nopass_' + crypto.randomBytes(3).toString('hex') });
      assert.equal(res.status, 201);
      assert.equal(res.body.user.role, 'viewer');
      assert.equal((await models.User.findByPk(res.body.user.id))!.passwordHash, null);
    });

    it('when the email or username is taken (any case), then 409 and nothing written', async () => {
      const existing = await createTestUser('viewer', { username: `taken_${crypto.randomBytes(3).toString('hex')}` });
      const before = await rowCounts();
      const dupEmail = await api().post('/api/users').set(as(admin.token)).send({ email: existing.email.toUpperCase() });
      assert.equal(dupEmail.status, 409);
      assert.deepEqual(dupEmail.body, { error: 'User with this email or username already exists' });
      const dupName = await api().post('/api/users').set(as(admin.token)).send({ email: uniqueEmail(), username: existing.username.toUpperCase() });
      assert.equal(dupName.status, 409);
      assert.deepEqual(await rowCounts(), before);
    });

    it('when the body is bad, then 400 naming the field and nothing written', async () => {
      const before = await rowCounts();
      const cases: Array<[unknown, string]> = [
        [{}, 'email'],
        [{ email: 'not-an-email' }, 'email'],
        [{ email: 42 }, 'email'],
        [{ email: uniqueEmail(), password: 'short' }, 'password'],
        [{ email: uniqueEmail(), password: 'x'.repeat(129) }, 'password'],
        [{ email: uniqueEmail(), role: 'superadmin' }, 'role'],
        [{ email: uniqueEmail(), role: ['admin'] }, 'role'],
        [{ email: uniqueEmail(), username: 'ab' }, 'username'],
        [{ email: uniqueEmail(), username: "x' OR 1=1 --" }, 'username'],
        [{ email: uniqueEmail(), firstName: 'n'.repeat(101) }, 'firstName'],
        [{ email: uniqueEmail(), firstName: { $gt: '' } }, 'firstName'],
        [{ email: uniqueEmail(), active: false }, 'active'],
        [{ email: uniqueEmail(), id: crypto.randomUUID() }, 'id'],
        [{ email: uniqueEmail(), passwordHash: 'pbkdf2:1:aa:bb' }, 'passwordHash'],
        [{ email: `${'a'.repeat(300)}@example.test` }, 'email'],
      ];
      for (const [body, field] of cases) {
        const res = await api().post('/api/users').set(as(admin.token)).send(body as object);
        assert.equal(res.status, 400, JSON.stringify(body).slice(0, 80));
        assert.equal(res.body.error, 'Validation failed');
        assert.ok(res.body.errors[field], `${field} named in ${JSON.stringify(res.body)}`);
      }
      const array = await api().post('/api/users').set(as(admin.token)).send([{ email: uniqueEmail() }]);
      assert.equal(array.status, 400);
      assert.deepEqual(await rowCounts(), before);
    });

    it('when names hold injection strings, then they are stored as data', async () => {
      const res = await api().post('/api/users').set(as(admin.token)).send({ email: uniqueEmail(), firstName: "Robert'); DROP TABLE users;--", lastName: '" OR ""="' });
      assert.equal(res.status, 201);
      const again = await api().get(`/api/users/${res.body.user.id}`).set(as(admin.token));
      assert.equal(again.body.user.firstName, "Robert'); DROP TABLE users;--");
      assert.equal(again.body.user.lastName, '" OR ""="');
    });
  });

  describe('update', () => {
    it('when an admin changes role and names, then 200 { user }, and the activity says what changed', async () => {
      const { models } = ctx();
      const target = await createTestUser('viewer', { firstName: 'Old' });
      const res = await api().patch(`/api/users/${target.id}`).set(as(admin.token)).send({ role: 'author', firstName: 'New', lastName: null });
      assert.equal(res.status, 200);
      assert.equal(res.body.user.role, 'author');
      assert.equal(res.body.user.firstName, 'New');
      assert.equal(res.body.user.lastName, null);
      const log = await models.ActivityLog.findOne({ where: { action: 'user.updated', userId: admin.id }, order: [['id', 'DESC']] });
      assert.deepEqual(log?.details, {
        targetUserId: target.id,
        targetEmail: target.email,
        changes: { role: { from: 'viewer', to: 'author' }, firstName: { from: 'Old', to: 'New' } },
      });
    });

    it('when the username is taken by another user (any case), then 409 and nothing changes', async () => {
      const { models } = ctx();
      const other = await createTestUser('viewer', { username: `other_${crypto.randomBytes(3).toString('hex')}` });
      const target = await createTestUser('viewer');
      const res = await api().patch(`/api/users/${target.id}`).set(as(admin.token)).send({ username: other.username.toUpperCase(), role: 'author' });
      assert.equal(res.status, 409);
      const row = await models.User.findByPk(target.id);
      assert.equal(row!.username, target.username);
      assert.equal(row!.role, 'viewer');
    });

    it('when the body is bad, then 400 naming the field and nothing written', async () => {
      const target = await createTestUser('viewer');
      const before = await rowCounts();
      const cases: Array<[unknown, string]> = [
        [{}, '_'],
        [{ role: 'root' }, 'role'],
        [{ active: 'false' }, 'active'],
        [{ active: 0 }, 'active'],
        [{ email: uniqueEmail() }, 'email'],
        [{ password: 'new-password-1' }, 'password'],
        [{ tokenEpoch: 0 }, 'tokenEpoch'],
        [{ username: 'x'.repeat(65) }, 'username'],
        [{ lastName: 12 }, 'lastName'],
      ];
      for (const [body, field] of cases) {
        const res = await api().patch(`/api/users/${target.id}`).set(as(admin.token)).send(body as object);
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.ok(res.body.errors[field], `${field} named in ${JSON.stringify(res.body)}`);
      }
      assert.deepEqual(await rowCounts(), before);
      const row = await ctx().models.User.findByPk(target.id);
      assert.equal(row!.role, 'viewer');
    });

    it('when the user does not exist, then 404', async () => {
      const res = await api().patch(`/api/users/${crypto.randomUUID()}`).set(as(admin.token)).send({ role: 'editor' });
      assert.equal(res.status, 404);
    });
  });

  describe('delete', () => {
    it('when an admin deletes a user, then 204 and the profile, links, codes, reset and magic-link tokens go too; content stays', async () => {
      const { models } = ctx();
      const target = await createTestUser('author');
      const now = Math.floor(Date.now() / 1000);
      await models.OAuthAccount.create({ id: crypto.randomUUID(), userId: target.id, provider: 'github', providerAccountId: crypto.randomUUID(), email: target.email });
      await models.PasswordResetToken.create({ id: crypto.randomUUID(), userId: target.id, tokenHash: crypto.randomBytes(32).toString('hex'), expiresAt: new Date(Date.now() + 3600_000) });
      await models.OtpCode.create({ id: crypto.randomUUID(), userEmail: target.email, code: 'hash', expiresAt: now + 600 });
      await models.AuthVerification.create({ id: crypto.randomUUID(), identifier: target.email, value: crypto.randomBytes(16).toString('hex'), expiresAt: new Date(Date.now() + 900_000) });
      const item = await models.Content.create({ id: crypto.randomUUID(), title: 'kept', body: null, collectionId: null, authorId: target.id });

      const res = await api().delete(`/api/users/${target.id}`).set(as(admin.token));
      assert.equal(res.status, 204);
      assert.equal(res.text, '');
      assert.equal(await models.User.count({ where: { id: target.id } }), 0);
      assert.equal(await models.UserProfile.count({ where: { userId: target.id } }), 0);
      assert.equal(await models.OAuthAccount.count({ where: { userId: target.id } }), 0);
      assert.equal(await models.PasswordResetToken.count({ where: { userId: target.id } }), 0);
      assert.equal(await models.OtpCode.count({ where: { userEmail: target.email } }), 0);
      assert.equal(await models.AuthVerification.count({ where: { identifier: target.email } }), 0);
      assert.equal((await models.Content.findByPk(item.id))!.authorId, null);
      const log = await models.ActivityLog.findOne({ where: { action: 'user.deleted', userId: admin.id }, order: [['id', 'DESC']] });
      assert.equal(log?.details?.targetUserId, target.id);

      assert.equal((await api().delete(`/api/users/${target.id}`).set(as(admin.token))).status, 404);
    });
  });

  describe('token revocation', () => {
    const changes: Array<[string, (id: string, token: string) => request.Test]> = [
      ['role change', (id, token) => api().patch(`/api/users/${id}`).set(as(token)).send({ role: 'viewer' })],
      ['deactivation', (id, token) => api().patch(`/api/users/${id}`).set(as(token)).send({ active: false })],
      ['deletion', (id, token) => api().delete(`/api/users/${id}`).set(as(token))],
    ];
    for (const [name, change] of changes) {
      it(`when a user's ${name} is made, then their token (already cached) is refused at once`, async () => {
        const target = await createUserWithToken('editor');
        // A first request caches the verification result for five minutes.
        assert.equal((await api().get('/auth/me').set(as(target.token))).status, 200);
        assert.equal((await api().get('/api/content').set(as(target.token))).status, 200);
        const res = await change(target.user.id, admin.token);
        assert.ok(res.status === 200 || res.status === 204, String(res.status));
        assert.equal((await api().get('/api/content').set(as(target.token))).status, 401);
        assert.equal((await api().get('/auth/me').set(as(target.token))).status, 401);
      });
    }

    it('when only names change, then the token keeps working and shows the new name at once', async () => {
      const target = await createUserWithToken('editor', { firstName: 'Before' });
      assert.equal((await api().get('/auth/me').set(as(target.token))).body.user.firstName, 'Before');
      const res = await api().patch(`/api/users/${target.user.id}`).set(as(admin.token)).send({ firstName: 'After' });
      assert.equal(res.status, 200);
      const me = await api().get('/auth/me').set(as(target.token));
      assert.equal(me.status, 200);
      assert.equal(me.body.user.firstName, 'After');
    });

    it('when a deactivated user is reactivated, then old tokens stay dead and new ones work', async () => {
      const target = await createUserWithToken('author');
      await api().patch(`/api/users/${target.user.id}`).set(as(admin.token)).send({ active: false }).expect(200);
      await api().patch(`/api/users/${target.user.id}`).set(as(admin.token)).send({ active: true }).expect(200);
      assert.equal((await api().get('/auth/me').set(as(target.token))).status, 401);
      assert.equal((await api().get('/auth/me').set(as(await tokenFor(target.user)))).status, 200);
    });

    it('when an admin is demoted, then their own old token loses admin access at once', async () => {
      const other = await createUserWithToken('admin');
      assert.equal((await api().get('/api/users').set(as(other.token))).status, 200);
      await api().patch(`/api/users/${other.user.id}`).set(as(admin.token)).send({ role: 'editor' }).expect(200);
      assert.equal((await api().get('/api/users').set(as(other.token))).status, 401);
      assert.equal((await api().get('/api/users').set(as(await tokenFor(other.user)))).status, 403);
    });
  });

  describe('last active admin', () => {
    let only: { id: string; token: string };

    beforeEach(async () => {
      await resetDatabase();
      const created = await createUserWithToken('admin');
      only = { id: created.user.id, token: created.token };
    });

    it('when the only active admin demotes, deactivates or deletes themself, then 409 and nothing changes', async () => {
      const { models } = ctx();
      const attempts = [
        () => api().patch(`/api/users/${only.id}`).set(as(only.token)).send({ role: 'editor' }),
        () => api().patch(`/api/users/${only.id}`).set(as(only.token)).send({ active: false }),
        () => api().patch(`/api/users/${only.id}`).set(as(only.token)).send({ role: 'viewer', active: false }),
        () => api().delete(`/api/users/${only.id}`).set(as(only.token)),
      ];
      for (const attempt of attempts) {
        const res = await attempt();
        assert.equal(res.status, 409);
        assert.match(res.body.error, /no active admin/);
      }
      const row = await models.User.findByPk(only.id);
      assert.equal(row!.role, 'admin');
      assert.equal(row!.active, true);
      assert.equal((await api().get('/api/users').set(as(only.token))).status, 200, 'token still valid');
    });

    it('when the other admin is inactive, then it does not count', async () => {
      await createTestUser('admin', { active: false });
      const res = await api().patch(`/api/users/${only.id}`).set(as(only.token)).send({ role: 'editor' });
      assert.equal(res.status, 409);
    });

    it('when another active admin exists, then an admin may step down', async () => {
      await createTestUser('admin');
      const res = await api().patch(`/api/users/${only.id}`).set(as(only.token)).send({ role: 'editor' });
      assert.equal(res.status, 200);
      assert.equal(res.body.user.role, 'editor');
    });

    it('when a non-admin role change or an admin name change is made, then the rule does not get in the way', async () => {
      const viewer = await createTestUser('viewer');
      assert.equal((await api().patch(`/api/users/${viewer.id}`).set(as(only.token)).send({ role: 'editor' })).status, 200);
      assert.equal((await api().patch(`/api/users/${only.id}`).set(as(only.token)).send({ firstName: 'Still admin', role: 'admin', active: true })).status, 200);
    });

    it('when two admins demote each other at the same time, then exactly one succeeds', async () => {
      const { models } = ctx();
      for (let round = 0; round < 5; round++) {
        await resetDatabase();
        const a = await createUserWithToken('admin');
        const b = await createUserWithToken('admin');
        const [first, second] = await Promise.all([
          api().patch(`/api/users/${b.user.id}`).set(as(a.token)).send({ role: 'viewer' }),
          api().patch(`/api/users/${a.user.id}`).set(as(b.token)).send({ role: 'viewer' }),
        ]);
        const statuses = [first.status, second.status].sort();
        // The loser is refused either by the rule (409) or because the winner's change already ended its token (401).
        assert.equal(statuses[0], 200, JSON.stringify([first.body, second.body]));
        assert.ok(statuses[1] === 409 || statuses[1] === 401, JSON.stringify([first.body, second.body]));
        assert.equal(await models.User.count({ where: { role: 'admin', active: true } }), 1);
      }
    });

    it('when the service is asked to remove both remaining admins at once, then exactly one change wins (409 for the other)', async () => {
      const c = ctx();
      const { userAdmin } = createContainer({ config: c.config, logger: c.logger, sequelize: c.sequelize, models: c.models, store: c.store });
      const audit = { actor: { id: 'test', email: 'test@example.test' }, context: { ip: null, userAgent: null } };
      for (let round = 0; round < 5; round++) {
        await resetDatabase();
        const a = await createTestUser('admin');
        const b = await createTestUser('admin');
        const outcomes = await Promise.allSettled([
          userAdmin.update(a.id, { role: 'viewer' }, audit),
          userAdmin.update(b.id, { active: false }, audit),
          userAdmin.remove(a.id, audit),
          userAdmin.remove(b.id, audit),
        ]);
        const refused = outcomes.filter((outcome) => outcome.status === 'rejected');
        for (const outcome of refused) {
          const reason = (outcome as PromiseRejectedResult).reason as AppError;
          assert.ok(reason instanceof AppError && (reason.status === 409 || reason.status === 404), String(reason));
        }
        assert.equal(await c.models.User.count({ where: { role: 'admin', active: true } }), 1, JSON.stringify(outcomes.map((o) => o.status)));
      }
    });

    it('when two admins deactivate and delete each other at the same time, then one admin remains active', async () => {
      const { models } = ctx();
      for (let round = 0; round < 5; round++) {
        await resetDatabase();
        const a = await createUserWithToken('admin');
        const b = await createUserWithToken('admin');
        const results = await Promise.all([
          api().delete(`/api/users/${b.user.id}`).set(as(a.token)),
          api().patch(`/api/users/${a.user.id}`).set(as(b.token)).send({ active: false }),
        ]);
        assert.equal(results.filter((res) => res.status === 200 || res.status === 204).length, 1, JSON.stringify(results.map((res) => [res.status, res.body])));
        assert.ok(results.every((res) => res.status < 500));
        assert.equal(await models.User.count({ where: { role: 'admin', active: true } }), 1);
      }
    });
  });

  describe('access', () => {
    for (const role of ['editor', 'author', 'viewer'] as const) {
      it(`when a ${role} calls any users route, then 403 and nothing written`, async () => {
        const { token } = await createUserWithToken(role);
        const target = await createTestUser('viewer');
        const before = await rowCounts();
        const calls = [
          api().get('/api/users'),
          api().get(`/api/users/${target.id}`),
          api().post('/api/users').send({ email: uniqueEmail() }),
          api().patch(`/api/users/${target.id}`).send({ role: 'admin' }),
          api().delete(`/api/users/${target.id}`),
        ];
        for (const call of calls) {
          const res = await call.set(as(token));
          assert.equal(res.status, 403);
          assert.deepEqual(res.body, { error: 'Insufficient permissions' });
        }
        assert.deepEqual(await rowCounts(), before);
      });
    }

    it('when nobody is signed in, then 401 before any validation', async () => {
      const res = await api().post('/api/users').send({ nonsense: true });
      assert.equal(res.status, 401);
      assert.deepEqual(res.body, { error: 'Authentication required' });
    });
  });
});
