import assert from 'node:assert/strict';
import request from 'supertest';
import { ctx } from '../../support/context';
import { location, signedIn } from '../../support/admin-pages';

describe('admin activity page', () => {
  it('when an editor opens it, then 302 to sign-in with the reason', async () => {
    const editor = await signedIn('editor');
    const res = await request(ctx().app).get('/admin/activity').set('Cookie', editor.cookie);
    assert.equal(location(res), '/auth/login?notice=forbidden');
  });

  it('when filtered by action, then the table shows those entries with time, action, user, IP and escaped details', async () => {
    const admin = await signedIn('admin');
    await ctx().models.ActivityLog.create({
      action: 'auth.login_failed', userId: null, email: '<svg onload=alert(1)>@x.test', ip: '203.0.113.9', userAgent: null, details: { reason: '<script>alert(2)</script>' },
    });
    await ctx().models.ActivityLog.create({ action: 'auth.logout', userId: admin.user.id, email: admin.user.email, ip: '203.0.113.10', userAgent: null, details: null });
    const res = await request(ctx().app).get('/admin/activity?action=auth.login_failed').set('Cookie', admin.cookie);
    assert.equal(res.status, 200);
    for (const header of ['Time (UTC)', 'Action', 'User', 'IP', 'Details']) assert.ok(res.text.includes(`<th scope="col">${header}</th>`), header);
    assert.ok(res.text.includes('203.0.113.9'));
    assert.ok(!res.text.includes('203.0.113.10'));
    assert.ok(res.text.includes('&lt;svg onload=alert(1)&gt;@x.test'));
    assert.ok(res.text.includes('&lt;script&gt;alert(2)&lt;/script&gt;'));
    assert.ok(!res.text.includes('<script>alert(2)'));
    assert.match(res.text, /<option value="auth.login_failed" selected>/);
  });

  it('when there are more entries than a page, then paging links keep the filter', async () => {
    const admin = await signedIn('admin');
    const res = await request(ctx().app).get('/admin/activity?limit=1').set('Cookie', admin.cookie);
    assert.match(res.text, /href="\/admin\/activity\?limit=1&amp;page=2" rel="next">Next page</);
    const bad = await request(ctx().app).get('/admin/activity?action=nope').set('Cookie', admin.cookie);
    assert.equal(bad.status, 200);
    assert.match(bad.text, /Filter ignored: action is not a known action/);
  });

  it('when a page past the last one is asked for, then the page says so and links to the last page', async () => {
    const admin = await signedIn('admin');
    await ctx().models.ActivityLog.create({ action: 'auth.logout', userId: admin.user.id, email: admin.user.email, ip: '203.0.113.11', userAgent: null, details: null });
    const res = await request(ctx().app).get(`/admin/activity?userId=${admin.user.id}&page=99999`).set('Cookie', admin.cookie);
    assert.equal(res.status, 200);
    const last = `/admin/activity?userId=${admin.user.id}&amp;page=1`;
    assert.ok(res.text.includes(`Page 99999 is past the last page.</span>`));
    assert.ok(res.text.includes(`<a href="${last}">Go to page 1</a>`), 'a link to the last page, filter kept');
    assert.doesNotMatch(res.text, /Previous page/);
  });
});
