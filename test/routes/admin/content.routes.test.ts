import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import request from 'supertest';
import { ctx } from '../../support/context';
import { formBody, location, signedIn, type PageSession } from '../../support/admin-pages';
import type { ContentStatus } from '../../../src/models';

function post(session: PageSession, path: string, fields: Record<string, string | string[]>, withCsrf = true) {
  return request(ctx().app)
    .post(path)
    .set('Cookie', session.cookie)
    .set('Accept', 'text/html')
    .type('form')
    .send(formBody(withCsrf ? { _csrf: session.csrf, ...fields } : fields));
}

async function item(authorId: string | null, status: ContentStatus, title = `Item ${crypto.randomBytes(3).toString('hex')}`) {
  return ctx().models.Content.create({ id: crypto.randomUUID(), title, body: 'text', status, authorId, collectionId: null });
}

function statusOptions(html: string): string[] {
  const select = /<select id="field-status"[\s\S]*?<\/select>/.exec(html)?.[0] ?? '';
  return [...select.matchAll(/<option value="([^"]*)"/g)].map((match) => match[1]);
}

describe('admin content pages', () => {
  it('when a viewer opens them, then 302 to sign-in with the reason; signed out, with the way back', async () => {
    const viewer = await signedIn('viewer');
    const res = await request(ctx().app).get('/admin/content').set('Cookie', viewer.cookie);
    assert.equal(res.status, 302);
    assert.equal(location(res), '/auth/login?notice=forbidden');
    const out = await request(ctx().app).get('/admin/content/new');
    assert.equal(location(out), '/auth/login?redirect=%2Fadmin%2Fcontent%2Fnew');
  });

  it("when an author creates, then Status offers Draft and Review only, and a forged Published is refused on the page", async () => {
    const author = await signedIn('author');
    const form = await request(ctx().app).get('/admin/content/new').set('Cookie', author.cookie);
    assert.deepEqual(statusOptions(form.text), ['draft', 'review']);
    const forged = await post(author, '/admin/content/new', { title: 'Sneaky', body: '', status: 'published', collectionId: '' });
    assert.equal(forged.status, 403);
    assert.match(forged.text, /role="alert">Insufficient permissions</);
    assert.ok(forged.text.includes('value="Sneaky"'));
    assert.equal(await ctx().models.Content.count({ where: { title: 'Sneaky' } }), 0);

    const ok = await post(author, '/admin/content/new', { title: 'Mine <b>bold</b>', body: 'Hello', status: 'review', collectionId: '' });
    assert.equal(ok.status, 303);
    const created = await ctx().models.Content.findOne({ where: { title: 'Mine <b>bold</b>' } });
    assert.equal(created?.status, 'review');
    assert.equal(created?.authorId, author.user.id);
    const edit = await request(ctx().app).get(location(ok)).set('Cookie', author.cookie);
    assert.deepEqual(statusOptions(edit.text), ['draft', 'review']);
    assert.ok(edit.text.includes('Mine &lt;b&gt;bold&lt;/b&gt;'));
    assert.ok(!edit.text.includes('Delete this item'), 'authors cannot delete');
  });

  it("when an author opens another's draft or their own published item, then 403", async () => {
    const author = await signedIn('author');
    const other = await item(null, 'draft');
    const published = await item(author.user.id, 'published');
    for (const target of [other, published]) {
      const res = await request(ctx().app).get(`/admin/content/${target.id}/edit`).set('Cookie', author.cookie).set('Accept', 'text/html');
      assert.equal(res.status, 403);
    }
  });

  it('when the title is empty, then the error is at the title and the body is kept', async () => {
    const editor = await signedIn('editor');
    const res = await post(editor, '/admin/content/new', { title: '  ', body: '<script>alert(1)</script>', status: 'draft', collectionId: '' });
    assert.equal(res.status, 400);
    assert.match(res.text, /data-field="title"[\s\S]*?class="field-error"[^>]*>is required</);
    assert.ok(res.text.includes('&lt;script&gt;alert(1)&lt;/script&gt;</textarea>'));
  });

  it('when an editor edits, then all statuses are offered and publishing works; delete is offered on own items only', async () => {
    const editor = await signedIn('editor');
    const mine = await item(editor.user.id, 'draft');
    const theirs = await item(null, 'review');
    const collection = await ctx().models.Collection.create({ id: crypto.randomUUID(), name: `News ${crypto.randomBytes(3).toString('hex')}`, description: null });
    const form = await request(ctx().app).get(`/admin/content/${theirs.id}/edit`).set('Cookie', editor.cookie);
    assert.deepEqual(statusOptions(form.text), ['draft', 'review', 'published']);
    assert.ok(!form.text.includes('Delete this item'));
    const saved = await post(editor, `/admin/content/${theirs.id}/edit`, { title: theirs.title, body: 'new body', status: 'published', collectionId: collection.id });
    assert.equal(saved.status, 303);
    const after = await ctx().models.Content.findByPk(theirs.id, { rejectOnEmpty: true });
    assert.equal(after.status, 'published');
    assert.equal(after.collectionId, collection.id);

    const refused = await post(editor, `/admin/content/${theirs.id}/delete`, { confirm: 'on' });
    assert.equal(refused.status, 403);
    assert.ok(await ctx().models.Content.findByPk(theirs.id));

    const own = await request(ctx().app).get(`/admin/content/${mine.id}/edit`).set('Cookie', editor.cookie);
    assert.ok(own.text.includes('Delete this item'));
    const unconfirmed = await post(editor, `/admin/content/${mine.id}/delete`, {});
    assert.equal(unconfirmed.status, 400);
    const deleted = await post(editor, `/admin/content/${mine.id}/delete`, { confirm: ['off', 'on'] });
    assert.equal(deleted.status, 303);
    assert.equal(location(deleted), '/admin/content?notice=content_deleted');
    assert.equal(await ctx().models.Content.findByPk(mine.id), null);
    const again = await post(editor, `/admin/content/${mine.id}/delete`, { confirm: ['off', 'on'] });
    assert.equal(location(again), '/admin/content?notice=content_gone', 'a second delete goes back to the list too');
  });

  it('when the list is filtered by status, then only those items show, titles escaped', async () => {
    const admin = await signedIn('admin');
    const marker = crypto.randomBytes(4).toString('hex');
    await item(null, 'review', `<img src=x onerror=alert(1)> ${marker}`);
    await item(null, 'draft', `draft ${marker}`);
    const res = await request(ctx().app).get('/admin/content?status=review&limit=100').set('Cookie', admin.cookie);
    assert.equal(res.status, 200);
    assert.ok(res.text.includes(`&lt;img src=x onerror=alert(1)&gt; ${marker}`));
    assert.ok(!res.text.includes(`draft ${marker}`));
    assert.match(res.text, /<th scope="col">Status<\/th>/);
  });

  it('when a post has no _csrf, then 403 and nothing is created', async () => {
    const editor = await signedIn('editor');
    const res = await post(editor, '/admin/content/new', { title: 'No token', status: 'draft' }, false);
    assert.equal(res.status, 403);
    assert.equal(await ctx().models.Content.count({ where: { title: 'No token' } }), 0);
  });
});
