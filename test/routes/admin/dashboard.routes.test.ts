import assert from 'node:assert/strict';
import request from 'supertest';
import { ctx } from '../../support/context';
import { location, signedIn } from '../../support/admin-pages';

describe('admin dashboard page and layout', () => {
  it('when not signed in, then 302 to the sign-in page with the path to come back to', async () => {
    const res = await request(ctx().app).get('/admin?x=1').set('Accept', 'text/html');
    assert.equal(res.status, 302);
    assert.equal(location(res), `/auth/login?redirect=${encodeURIComponent('/admin?x=1')}`);
  });

  it('when the token is invalid, then it counts as signed out (also for JSON clients: the admin site is pages only)', async () => {
    const res = await request(ctx().app).get('/admin').set('Cookie', 'auth_token=not-a-token');
    assert.equal(res.status, 302);
    assert.equal(location(res), `/auth/login?redirect=${encodeURIComponent('/admin')}`);
  });

  it('when an admin opens it, then counts by role and status, every section in the menu, a sign-out form, no-store and the security headers', async () => {
    const session = await signedIn('admin');
    const res = await request(ctx().app).get('/admin').set('Cookie', session.cookie);
    assert.equal(res.status, 200);
    assert.equal(res.headers['cache-control'], 'no-store');
    assert.equal(res.headers['x-frame-options'], 'SAMEORIGIN');
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.match(res.text, /<title>Dashboard · Admin · Auth service<\/title>/);
    assert.equal(res.text.match(/<h1[ >]/g)?.length, 1);
    assert.match(res.text, /Users by role/);
    assert.match(res.text, /Content by status/);
    for (const href of ['/admin/users', '/admin/content', '/admin/collections', '/admin/activity', '/admin/settings/security', '/admin/plugins', '/admin/profile']) {
      assert.match(res.text, new RegExp(`<li><a href="${href}"`));
    }
    assert.match(res.text, /<form class="sign-out" method="post" action="\/auth\/logout">/);
    assert.ok(res.text.includes(`name="_csrf" value="${session.csrf}"`));
  });

  it('when a viewer opens it, then the menu lists Profile only and no counts', async () => {
    const session = await signedIn('viewer');
    const res = await request(ctx().app).get('/admin').set('Cookie', session.cookie);
    assert.equal(res.status, 200);
    const menu = [...res.text.matchAll(/<li><a href="([^"]+)"/g)].map((match) => match[1]);
    assert.deepEqual([...new Set(menu)], ['/admin/profile']);
    assert.doesNotMatch(res.text, /Users by role|Content by status/);
  });

  it('when an author opens it, then content counts and the Content and Profile sections only', async () => {
    const session = await signedIn('author');
    const res = await request(ctx().app).get('/admin').set('Cookie', session.cookie);
    const menu = [...res.text.matchAll(/<li><a href="([^"]+)"/g)].map((match) => match[1]);
    assert.deepEqual([...new Set(menu)], ['/admin/content', '/admin/profile']);
    assert.match(res.text, /Content by status/);
    assert.doesNotMatch(res.text, /Users by role/);
  });

  it('when text comes in the query as a notice, then the page shows none of it (only ?notice= codes are shown)', async () => {
    const session = await signedIn('viewer');
    const res = await request(ctx().app).get('/admin?message=%3Cscript%3Ealert(1)%3C%2Fscript%3E&error=%3Cimg%20src%3Dx%3E').set('Cookie', session.cookie);
    assert.equal(res.status, 200);
    assert.ok(!res.text.includes('alert(1)') && !res.text.includes('img src=x'));
    assert.doesNotMatch(res.text, /role="(status|alert)"/);
  });

  it('when the sign-out button posts, then the user is signed out to the sign-in page', async () => {
    const session = await signedIn('viewer');
    const res = await request(ctx().app).post('/auth/logout').set('Cookie', session.cookie).type('form').send({ _csrf: session.csrf });
    assert.equal(res.status, 302);
    assert.match(location(res), /^\/auth\/login\?notice=signed_out$/);
  });
});
