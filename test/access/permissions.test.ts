import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import request from 'supertest';
import { ctx, uniqueEmail } from '../support/context';
import { createTestUser, createUserWithToken } from '../support/users';
import { ROLES, type ContentStatus, type Role } from '../../src/models';

interface Actor {
  id: string;
  role: Role;
  token: string;
}

async function item(authorId: string, status: ContentStatus = 'draft') {
  return ctx().models.Content.create({ id: crypto.randomUUID(), title: 'matrix item', body: null, status, collectionId: null, authorId });
}

/**
 * SPEC "Permission matrix", one API call per capability. Each capability says which roles may use it
 * and how to try it as a given user (fresh rows per try, so the order of roles does not matter).
 */
const CAPABILITIES: Array<{ name: string; allowed: Role[]; attempt: (actor: Actor, someoneElse: Actor) => Promise<request.Response> }> = [
  {
    name: 'create/edit/delete users (manage:users)',
    allowed: ['admin'],
    attempt: async (actor) => {
      const create = await request(ctx().app).post('/api/users').set('Authorization', `Bearer ${actor.token}`).send({ email: uniqueEmail('matrix') });
      if (create.status !== 201) return create;
      const target = await createTestUser('viewer');
      await request(ctx().app).patch(`/api/users/${target.id}`).set('Authorization', `Bearer ${actor.token}`).send({ firstName: 'x' }).expect(200);
      return request(ctx().app).delete(`/api/users/${target.id}`).set('Authorization', `Bearer ${actor.token}`);
    },
  },
  {
    name: 'create/edit/delete collections (manage:collections)',
    allowed: ['admin'],
    attempt: async (actor) => {
      const create = await request(ctx().app).post('/api/collections').set('Authorization', `Bearer ${actor.token}`).send({ name: `m-${crypto.randomBytes(4).toString('hex')}` });
      if (create.status !== 201) return create;
      const id = create.body.collection.id;
      await request(ctx().app).put(`/api/collections/${id}`).set('Authorization', `Bearer ${actor.token}`).send({ description: 'x' }).expect(200);
      return request(ctx().app).delete(`/api/collections/${id}`).set('Authorization', `Bearer ${actor.token}`);
    },
  },
  {
    name: 'create content (create:content)',
    allowed: ['admin', 'editor', 'author'],
    attempt: (actor) => request(ctx().app).post('/api/content').set('Authorization', `Bearer ${actor.token}`).send({ title: 'new' }),
  },
  {
    name: 'edit any content (edit:any-content)',
    allowed: ['admin', 'editor'],
    attempt: async (actor, someoneElse) => {
      const theirs = await item(someoneElse.id);
      return request(ctx().app).put(`/api/content/${theirs.id}`).set('Authorization', `Bearer ${actor.token}`).send({ title: 'edited' });
    },
  },
  {
    name: 'edit own content (edit:own-content)',
    allowed: ['admin', 'editor', 'author'],
    attempt: async (actor) => {
      const own = await item(actor.id);
      return request(ctx().app).put(`/api/content/${own.id}`).set('Authorization', `Bearer ${actor.token}`).send({ title: 'edited', status: 'review' });
    },
  },
  {
    name: 'publish content (publish:content)',
    allowed: ['admin', 'editor'],
    attempt: async (actor) => {
      const own = await item(actor.id, 'review');
      return request(ctx().app).put(`/api/content/${own.id}`).set('Authorization', `Bearer ${actor.token}`).send({ status: 'published' });
    },
  },
  {
    name: "delete someone else's content (delete:any-content)",
    allowed: ['admin'],
    attempt: async (actor, someoneElse) => {
      const theirs = await item(someoneElse.id);
      return request(ctx().app).delete(`/api/content/${theirs.id}`).set('Authorization', `Bearer ${actor.token}`);
    },
  },
  {
    name: 'delete own content (delete:own-content)',
    allowed: ['admin', 'editor'],
    attempt: async (actor) => {
      const own = await item(actor.id);
      return request(ctx().app).delete(`/api/content/${own.id}`).set('Authorization', `Bearer ${actor.token}`);
    },
  },
  {
    name: 'view activity logs (view:activity-logs)',
    allowed: ['admin'],
    attempt: (actor) => request(ctx().app).get('/api/activity-logs').set('Authorization', `Bearer ${actor.token}`),
  },
  {
    name: 'manage plugins (manage:plugins)',
    allowed: ['admin'],
    attempt: async (actor) => {
      const list = await request(ctx().app).get('/api/plugins').set('Authorization', `Bearer ${actor.token}`);
      if (list.status !== 200) return list;
      return request(ctx().app).get('/api/plugins/email').set('Authorization', `Bearer ${actor.token}`);
    },
  },
  {
    name: 'manage settings (manage:settings)',
    allowed: ['admin'],
    attempt: (actor) => request(ctx().app).get('/api/settings/security').set('Authorization', `Bearer ${actor.token}`),
  },
  {
    name: 'read collections and published content',
    allowed: ['admin', 'editor', 'author', 'viewer'],
    attempt: async (actor, someoneElse) => {
      const published = await item(someoneElse.id, 'published');
      const collections = await request(ctx().app).get('/api/collections').set('Authorization', `Bearer ${actor.token}`);
      if (collections.status !== 200) return collections;
      return request(ctx().app).get(`/api/content/${published.id}`).set('Authorization', `Bearer ${actor.token}`);
    },
  },
  {
    name: "read someone else's unpublished content",
    allowed: ['admin', 'editor'],
    attempt: async (actor, someoneElse) => {
      const draft = await item(someoneElse.id, 'review');
      return request(ctx().app).get(`/api/content/${draft.id}`).set('Authorization', `Bearer ${actor.token}`);
    },
  },
];

describe('permission matrix through the API', () => {
  const actors = {} as Record<Role, Actor>;
  let someoneElse: Actor;

  before(async () => {
    for (const role of ROLES) {
      const { user, token } = await createUserWithToken(role);
      actors[role] = { id: user.id, role, token };
    }
    const other = await createUserWithToken('author');
    someoneElse = { id: other.user.id, role: 'author', token: other.token };
  });

  for (const capability of CAPABILITIES) {
    for (const role of ROLES) {
      const allowed = capability.allowed.includes(role);
      it(`when a ${role} tries to ${capability.name}, then ${allowed ? 'it works' : '403 Insufficient permissions'}`, async () => {
        const res = await capability.attempt(actors[role], someoneElse);
        if (allowed) {
          assert.ok([200, 201, 204].includes(res.status), `${res.status} ${JSON.stringify(res.body)}`);
        } else {
          assert.equal(res.status, 403, JSON.stringify(res.body));
          assert.deepEqual(res.body, { error: 'Insufficient permissions' });
        }
      });
    }
  }
});
