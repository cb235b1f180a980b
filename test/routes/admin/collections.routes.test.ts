import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import request from 'supertest';
import { ctx } from '../../support/context';
import { formBody, location, signedIn, type PageSession } from '../../support/admin-pages';

function post(session: PageSession, path: string, fields: Record<string, string | string[]>, withCsrf = true) {
  return request(ctx().app)
    .post(path)
    .set('Cookie', session.cookie)
    .set('Accept', 'text/html')
    .type('form')
    .send(formBody(withCsrf ? { _csrf: session.csrf, ...fields } : fields));
}

const unique = (label: string) => `${label} ${crypto.randomBytes(4).toString('hex')}`;

describe('admin collection pages', () => {
  it('when an editor opens them, then 302 to sign-in with the reason', async () => {
    const editor = await signedIn('editor');
    const res = await request(ctx().app).get('/admin/collections').set('Cookie', editor.cookie);
    assert.equal(location(res), '/auth/login?notice=forbidden');
  });

  it('when an admin creates one, then it is listed (escaped) with a confirmation; a taken or empty name shows at the field', async () => {
    const admin = await signedIn('admin');
    const name = unique('<b>News</b>');
    const created = await post(admin, '/admin/collections', { name, description: 'Daily' });
    assert.equal(created.status, 303);
    const page = await request(ctx().app).get(location(created)).set('Cookie', admin.cookie);
    assert.ok(page.text.includes(name.replace('<b>', '&lt;b&gt;').replace('</b>', '&lt;/b&gt;')));
    assert.ok(!page.text.includes('<b>News</b>'));
    assert.match(page.text, /role="status">Collection /);

    const taken = await post(admin, '/admin/collections', { name, description: 'again' });
    assert.equal(taken.status, 409);
    assert.match(taken.text, /data-field="name"[\s\S]*?class="field-error"[^>]*>A collection with this name already exists</);
    assert.ok(taken.text.includes('again</textarea>'));
    const empty = await post(admin, '/admin/collections', { name: '', description: '' });
    assert.equal(empty.status, 400);
    assert.match(empty.text, /data-field="name"[\s\S]*?class="field-error"[^>]*>is required</);
  });

  it('when edited and deleted, then the changes land and its items stay without a collection', async () => {
    const admin = await signedIn('admin');
    const collection = await ctx().models.Collection.create({ id: crypto.randomUUID(), name: unique('Docs'), description: 'old' });
    const content = await ctx().models.Content.create({ id: crypto.randomUUID(), title: 'in docs', status: 'draft', collectionId: collection.id, authorId: null, body: null });
    const form = await request(ctx().app).get(`/admin/collections/${collection.id}/edit`).set('Cookie', admin.cookie);
    assert.ok(form.text.includes(`value="${collection.name}"`));
    const renamed = unique('Guides');
    const saved = await post(admin, `/admin/collections/${collection.id}/edit`, { name: renamed, description: '' });
    assert.equal(saved.status, 303);
    const after = await ctx().models.Collection.findByPk(collection.id, { rejectOnEmpty: true });
    assert.equal(after.name, renamed);
    assert.equal(after.description, null);

    const noCsrf = await post(admin, `/admin/collections/${collection.id}/delete`, { confirm: 'on' }, false);
    assert.equal(noCsrf.status, 403);
    const unconfirmed = await post(admin, `/admin/collections/${collection.id}/delete`, {});
    assert.equal(unconfirmed.status, 400);
    assert.ok(await ctx().models.Collection.findByPk(collection.id));
    const deleted = await post(admin, `/admin/collections/${collection.id}/delete`, { confirm: ['off', 'on'] });
    assert.equal(deleted.status, 303);
    assert.equal(await ctx().models.Collection.findByPk(collection.id), null);
    assert.equal((await ctx().models.Content.findByPk(content.id, { rejectOnEmpty: true })).collectionId, null);
    const again = await post(admin, `/admin/collections/${collection.id}/delete`, { confirm: ['off', 'on'] });
    assert.equal(again.status, 303, 'a second delete (a double click) goes back to the list too');
    assert.equal(location(again), '/admin/collections?notice=collection_gone');
  });

  it('when the collection does not exist, then 404', async () => {
    const admin = await signedIn('admin');
    const res = await request(ctx().app).get('/admin/collections/nope/edit').set('Cookie', admin.cookie).set('Accept', 'text/html');
    assert.equal(res.status, 404);
  });
});
