import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import request from 'supertest';
import { ctx } from '../support/context';
import { createUserWithToken } from '../support/users';
import type { ContentStatus, Role } from '../../src/models';

const FORBIDDEN = { error: 'Insufficient permissions' };
const ITEM_FIELDS = ['authorId', 'body', 'collectionId', 'createdAt', 'id', 'status', 'title', 'updatedAt'];

function api() {
  return request(ctx().app);
}
const as = (token: string) => ({ Authorization: `Bearer ${token}` });

/** An item written straight to the database, so each rule is tested from a known state. */
async function item(authorId: string | null, status: ContentStatus, collectionId: string | null = null) {
  return ctx().models.Content.create({ id: crypto.randomUUID(), title: `item ${status}`, body: 'text', status, collectionId, authorId });
}

async function contentCount(): Promise<number> {
  return ctx().models.Content.count();
}

describe('content and collections', () => {
  const people = {} as Record<Role, { id: string; token: string }>;
  let otherAuthor: { id: string; token: string };

  before(async () => {
    for (const role of ['admin', 'editor', 'author', 'viewer'] as const) {
      const { user, token } = await createUserWithToken(role);
      people[role] = { id: user.id, token };
    }
    const other = await createUserWithToken('author');
    otherAuthor = { id: other.user.id, token: other.token };
  });

  describe('collections', () => {
    it('when an admin creates, renames and deletes a collection, then 201 { collection }, 200, 204', async () => {
      const name = `news-${crypto.randomBytes(3).toString('hex')}`;
      const created = await api().post('/api/collections').set(as(people.admin.token)).send({ name, description: 'All the news' });
      assert.equal(created.status, 201);
      assert.deepEqual(Object.keys(created.body), ['collection']);
      assert.equal(created.body.collection.name, name);
      assert.equal(created.body.collection.description, 'All the news');
      const id = created.body.collection.id;

      const renamed = await api().put(`/api/collections/${id}`).set(as(people.admin.token)).send({ name: `${name}-2` });
      assert.equal(renamed.status, 200);
      assert.equal(renamed.body.collection.name, `${name}-2`);
      assert.equal(renamed.body.collection.description, 'All the news');

      const filtered = await api().get('/api/collections?page=2').set(as(people.viewer.token));
      assert.equal(filtered.status, 400, 'the list takes no query parameters, as other lists refuse unknown ones');
      const listed = await api().get('/api/collections').set(as(people.viewer.token));
      assert.equal(listed.status, 200);
      assert.ok(listed.body.collections.some((collection: { id: string }) => collection.id === id));

      const inCollection = await item(people.editor.id, 'draft', id);
      const deleted = await api().delete(`/api/collections/${id}`).set(as(people.admin.token));
      assert.equal(deleted.status, 204);
      assert.equal((await ctx().models.Content.findByPk(inCollection.id))!.collectionId, null, 'items stay, without a collection');
      assert.equal((await api().delete(`/api/collections/${id}`).set(as(people.admin.token))).status, 404);
      assert.equal((await api().put(`/api/collections/${id}`).set(as(people.admin.token)).send({ name: 'x' })).status, 404);
    });

    it('when the name is taken, then 409', async () => {
      const name = `dup-${crypto.randomBytes(3).toString('hex')}`;
      await api().post('/api/collections').set(as(people.admin.token)).send({ name }).expect(201);
      const res = await api().post('/api/collections').set(as(people.admin.token)).send({ name });
      assert.equal(res.status, 409);
    });

    it('when the body is bad, then 400 naming the field and nothing written', async () => {
      const { models } = ctx();
      const before = await models.Collection.count();
      for (const [body, field] of [
        [{}, 'name'],
        [{ name: '' }, 'name'],
        [{ name: '   ' }, 'name'],
        [{ name: 'n'.repeat(101) }, 'name'],
        [{ name: 7 }, 'name'],
        [{ name: 'ok', description: 'd'.repeat(10_001) }, 'description'],
        [{ name: 'ok', id: 'chosen' }, 'id'],
      ] as Array<[object, string]>) {
        const res = await api().post('/api/collections').set(as(people.admin.token)).send(body);
        assert.equal(res.status, 400, JSON.stringify(body).slice(0, 60));
        assert.ok(res.body.errors[field], JSON.stringify(res.body));
      }
      assert.equal(await models.Collection.count(), before);
    });

    for (const role of ['editor', 'author', 'viewer'] as const) {
      it(`when a ${role} tries to change collections, then 403 each time; reading is allowed`, async () => {
        const { models } = ctx();
        const existing = await models.Collection.create({ id: crypto.randomUUID(), name: `c-${crypto.randomBytes(4).toString('hex')}`, description: null });
        const token = people[role].token;
        assert.deepEqual((await api().post('/api/collections').set(as(token)).send({ name: 'nope' })).body, FORBIDDEN);
        assert.equal((await api().put(`/api/collections/${existing.id}`).set(as(token)).send({ name: 'nope' })).status, 403);
        assert.equal((await api().delete(`/api/collections/${existing.id}`).set(as(token))).status, 403);
        assert.equal((await api().get('/api/collections').set(as(token))).status, 200);
        assert.equal((await models.Collection.findByPk(existing.id))!.name, existing.name);
      });
    }

    it('when nobody is signed in, then 401 even for reading', async () => {
      assert.equal((await api().get('/api/collections')).status, 401);
    });
  });

  describe('content', () => {
    it('when an author creates an item, then it is a draft of theirs', async () => {
      const res = await api().post('/api/content').set(as(people.author.token)).send({ title: 'My post', body: 'Hello' });
      assert.equal(res.status, 201);
      assert.deepEqual(Object.keys(res.body), ['content']);
      assert.deepEqual(Object.keys(res.body.content).sort(), ITEM_FIELDS);
      assert.equal(res.body.content.status, 'draft');
      assert.equal(res.body.content.authorId, people.author.id);
    });

    it('when an author creates an item in review, then it is allowed; as published, then 403 and nothing written', async () => {
      assert.equal((await api().post('/api/content').set(as(people.author.token)).send({ title: 'For review', status: 'review' })).status, 201);
      const before = await contentCount();
      const res = await api().post('/api/content').set(as(people.author.token)).send({ title: 'Sneaky', status: 'published' });
      assert.equal(res.status, 403);
      assert.deepEqual(res.body, FORBIDDEN);
      assert.equal(await contentCount(), before);
    });

    it('when an item names a collection, then the collection must exist', async () => {
      const { models } = ctx();
      const collection = await models.Collection.create({ id: crypto.randomUUID(), name: `c-${crypto.randomBytes(4).toString('hex')}`, description: null });
      const ok = await api().post('/api/content').set(as(people.editor.token)).send({ title: 'In a collection', collectionId: collection.id });
      assert.equal(ok.status, 201);
      assert.equal(ok.body.content.collectionId, collection.id);
      const before = await contentCount();
      const missing = await api().post('/api/content').set(as(people.editor.token)).send({ title: 'Nowhere', collectionId: crypto.randomUUID() });
      assert.equal(missing.status, 400);
      assert.ok(missing.body.errors.collectionId);
      assert.equal(await contentCount(), before);
      const filtered = await api().get(`/api/content?collectionId=${collection.id}`).set(as(people.editor.token));
      assert.deepEqual(filtered.body.content.map((entry: { id: string }) => entry.id), [ok.body.content.id]);
    });

    describe('authors', () => {
      it('when an author edits their own draft or review item within draft/review, then 200', async () => {
        const own = await item(people.author.id, 'draft');
        const res = await api().put(`/api/content/${own.id}`).set(as(people.author.token)).send({ title: 'Better title', status: 'review' });
        assert.equal(res.status, 200);
        assert.equal(res.body.content.title, 'Better title');
        assert.equal(res.body.content.status, 'review');
        assert.equal(res.body.content.body, 'text', 'PUT changes only the fields it names');
        const back = await api().put(`/api/content/${own.id}`).set(as(people.author.token)).send({ status: 'draft' });
        assert.equal(back.status, 200);
      });

      it('when an author publishes their own item, edits a published one, or edits someone else\'s, then 403 and nothing changes', async () => {
        const { models } = ctx();
        const own = await item(people.author.id, 'review');
        const ownPublished = await item(people.author.id, 'published');
        const others = await item(otherAuthor.id, 'draft');
        const othersPublished = await item(people.editor.id, 'published');
        const attempts: Array<[string, object]> = [
          [own.id, { status: 'published' }],
          [ownPublished.id, { title: 'edited' }],
          [ownPublished.id, { status: 'draft' }],
          [others.id, { title: 'edited' }],
          [othersPublished.id, { title: 'edited' }],
        ];
        for (const [id, body] of attempts) {
          const res = await api().put(`/api/content/${id}`).set(as(people.author.token)).send(body);
          assert.equal(res.status, 403, `${id} ${JSON.stringify(body)}`);
          assert.deepEqual(res.body, FORBIDDEN);
        }
        assert.equal((await models.Content.findByPk(own.id))!.status, 'review');
        assert.equal((await models.Content.findByPk(ownPublished.id))!.title, 'item published');
        assert.equal((await models.Content.findByPk(others.id))!.title, 'item draft');
      });

      it('when an author deletes anything, even their own draft, then 403 and it stays', async () => {
        const own = await item(people.author.id, 'draft');
        const res = await api().delete(`/api/content/${own.id}`).set(as(people.author.token));
        assert.equal(res.status, 403);
        assert.deepEqual(res.body, FORBIDDEN);
        assert.ok(await ctx().models.Content.findByPk(own.id));
      });

      it('when an author reads, then published items and their own, never someone else\'s unpublished item', async () => {
        const othersDraft = await item(otherAuthor.id, 'draft');
        const ownDraft = await item(people.author.id, 'draft');
        const published = await item(otherAuthor.id, 'published');
        assert.equal((await api().get(`/api/content/${ownDraft.id}`).set(as(people.author.token))).status, 200);
        assert.equal((await api().get(`/api/content/${published.id}`).set(as(people.author.token))).status, 200);
        const denied = await api().get(`/api/content/${othersDraft.id}`).set(as(people.author.token));
        assert.equal(denied.status, 403);
        assert.deepEqual(denied.body, FORBIDDEN);
        const list = await api().get('/api/content?limit=100').set(as(people.author.token));
        const ids = list.body.content.map((entry: { id: string }) => entry.id);
        assert.ok(ids.includes(ownDraft.id) && ids.includes(published.id));
        assert.ok(!ids.includes(othersDraft.id));
        for (const entry of list.body.content) assert.ok(entry.status === 'published' || entry.authorId === people.author.id);
      });
    });

    describe('editors', () => {
      it('when an editor edits anyone\'s item and publishes or unpublishes it, then 200', async () => {
        const authors = await item(people.author.id, 'review');
        const published = await api().put(`/api/content/${authors.id}`).set(as(people.editor.token)).send({ status: 'published' });
        assert.equal(published.status, 200);
        assert.equal(published.body.content.status, 'published');
        assert.equal(published.body.content.authorId, people.author.id, 'the author stays');
        const edited = await api().put(`/api/content/${authors.id}`).set(as(people.editor.token)).send({ title: 'Copy-edited', status: 'draft' });
        assert.equal(edited.status, 200);
        assert.equal((await api().post('/api/content').set(as(people.editor.token)).send({ title: 'Straight out', status: 'published' })).status, 201);
      });

      it('when an editor deletes their own item, then 204; someone else\'s, then 403', async () => {
        const own = await item(people.editor.id, 'published');
        assert.equal((await api().delete(`/api/content/${own.id}`).set(as(people.editor.token))).status, 204);
        assert.equal(await ctx().models.Content.count({ where: { id: own.id } }), 0);
        const authors = await item(people.author.id, 'draft');
        const res = await api().delete(`/api/content/${authors.id}`).set(as(people.editor.token));
        assert.equal(res.status, 403);
        assert.deepEqual(res.body, FORBIDDEN);
        assert.ok(await ctx().models.Content.findByPk(authors.id));
      });

      it('when an editor reads, then every item, any status', async () => {
        const draft = await item(people.author.id, 'draft');
        assert.equal((await api().get(`/api/content/${draft.id}`).set(as(people.editor.token))).status, 200);
        const list = await api().get('/api/content?status=draft&limit=100').set(as(people.editor.token));
        assert.ok(list.body.content.some((entry: { id: string }) => entry.id === draft.id));
        assert.ok(list.body.content.every((entry: { status: string }) => entry.status === 'draft'));
      });
    });

    describe('admins', () => {
      it('when an admin edits, publishes and deletes anyone\'s item, then it all works', async () => {
        const authors = await item(people.author.id, 'draft');
        assert.equal((await api().put(`/api/content/${authors.id}`).set(as(people.admin.token)).send({ status: 'published' })).status, 200);
        assert.equal((await api().delete(`/api/content/${authors.id}`).set(as(people.admin.token))).status, 204);
        const authorless = await item(null, 'published');
        assert.equal((await api().delete(`/api/content/${authorless.id}`).set(as(people.admin.token))).status, 204);
      });
    });

    describe('viewers', () => {
      it('when a viewer lists content, then only published items, with a total that counts only them', async () => {
        await item(people.author.id, 'draft');
        await item(people.author.id, 'published');
        const res = await api().get('/api/content?limit=100').set(as(people.viewer.token));
        assert.equal(res.status, 200);
        assert.deepEqual(Object.keys(res.body).sort(), ['content', 'total']);
        assert.ok(res.body.content.length > 0);
        assert.ok(res.body.content.every((entry: { status: string }) => entry.status === 'published'));
        assert.equal(res.body.total, await ctx().models.Content.count({ where: { status: 'published' } }));
        const drafts = await api().get('/api/content?status=draft').set(as(people.viewer.token));
        assert.equal(drafts.body.total, 0);
      });

      it('when a viewer reads an unpublished item, then 403; a published one, then 200', async () => {
        const draft = await item(people.author.id, 'review');
        const published = await item(people.author.id, 'published');
        const denied = await api().get(`/api/content/${draft.id}`).set(as(people.viewer.token));
        assert.equal(denied.status, 403);
        assert.deepEqual(denied.body, FORBIDDEN);
        assert.equal((await api().get(`/api/content/${published.id}`).set(as(people.viewer.token))).status, 200);
      });

      it('when a viewer creates, edits or deletes, then 403 and nothing written (even on an item they once wrote)', async () => {
        const own = await item(people.viewer.id, 'draft');
        const before = await contentCount();
        for (const call of [
          api().post('/api/content').send({ title: 'No' }),
          api().put(`/api/content/${own.id}`).send({ title: 'No' }),
          api().delete(`/api/content/${own.id}`),
        ]) {
          const res = await call.set(as(people.viewer.token));
          assert.equal(res.status, 403);
          assert.deepEqual(res.body, FORBIDDEN);
        }
        assert.equal(await contentCount(), before);
        assert.equal((await ctx().models.Content.findByPk(own.id))!.title, 'item draft');
      });
    });

    it('when the item does not exist, then 404 for those allowed to act', async () => {
      const id = crypto.randomUUID();
      assert.equal((await api().get(`/api/content/${id}`).set(as(people.viewer.token))).status, 404);
      assert.equal((await api().put(`/api/content/${id}`).set(as(people.editor.token)).send({ title: 'x' })).status, 404);
      assert.equal((await api().delete(`/api/content/${id}`).set(as(people.admin.token))).status, 404);
    });

    it('when the input is bad, then 400 naming the field and nothing written', async () => {
      const own = await item(people.editor.id, 'draft');
      const before = await contentCount();
      const creates: Array<[object, string]> = [
        [{}, 'title'],
        [{ title: '' }, 'title'],
        [{ title: 't'.repeat(256) }, 'title'],
        [{ title: ['x'] }, 'title'],
        [{ title: 'ok', status: 'archived' }, 'status'],
        [{ title: 'ok', authorId: people.admin.id }, 'authorId'],
        [{ title: 'ok', body: 'b'.repeat(70_000) }, 'body'],
        [{ title: 'ok', body: '€'.repeat(30_000) }, 'body'],
        [{ title: "' OR 1=1 --", collectionId: "' OR 1=1 --" }, 'collectionId'],
      ];
      for (const [body, field] of creates) {
        const res = await api().post('/api/content').set(as(people.editor.token)).send(body);
        assert.equal(res.status, 400, JSON.stringify(body).slice(0, 60));
        assert.ok(res.body.errors[field], JSON.stringify(res.body));
      }
      for (const [body, field] of [
        [{}, '_'],
        [{ status: 'PUBLISHED' }, 'status'],
        [{ authorId: people.editor.id }, 'authorId'],
        [{ id: 'new-id' }, 'id'],
      ] as Array<[object, string]>) {
        const res = await api().put(`/api/content/${own.id}`).set(as(people.editor.token)).send(body);
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.ok(res.body.errors[field], JSON.stringify(res.body));
      }
      for (const query of ['limit=0', 'limit=101', 'limit=-1', 'limit=abc', 'page=0', 'status=secret', 'author=me']) {
        assert.equal((await api().get(`/api/content?${query}`).set(as(people.editor.token))).status, 400, query);
      }
      assert.equal(await contentCount(), before);
      assert.equal((await ctx().models.Content.findByPk(own.id))!.authorId, people.editor.id);
    });

    it('when listing, then newest first, paged, with the total of all matching items', async () => {
      const { token, user } = await createUserWithToken('author');
      for (let i = 0; i < 3; i++) await api().post('/api/content').set(as(token)).send({ title: `mine ${i}` }).expect(201);
      const page1 = await api().get('/api/content?status=draft&limit=2&page=1').set(as(token));
      const page2 = await api().get('/api/content?status=draft&limit=2&page=2').set(as(token));
      assert.equal(page1.body.total, 3);
      assert.deepEqual(page1.body.content.map((entry: { title: string }) => entry.title), ['mine 2', 'mine 1']);
      assert.deepEqual(page2.body.content.map((entry: { title: string }) => entry.title), ['mine 0']);
      assert.ok(page1.body.content.every((entry: { authorId: string }) => entry.authorId === user.id));
    });
  });
});
