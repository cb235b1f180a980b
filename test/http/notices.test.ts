import assert from 'node:assert/strict';
import request from 'supertest';
import { ctx } from '../support/context';
import { signedIn, type PageSession } from '../support/admin-pages';
import { NOTICE_CODES, lookUpNotice, noticeOf, withNotice } from '../../src/http/notices';
import { escapeHtml } from '../../src/mail/html';

/** The notice paragraphs a page draws (role=status for a message, role=alert for an error). */
function noticesOn(html: string): Array<{ role: string; text: string }> {
  return [...html.matchAll(/<p class="(?:message|error)" role="(status|alert)">([^<]*)<\/p>/g)].map((match) => ({ role: match[1], text: match[2] }));
}

/** Queries that once made the site say words of the link's author, and codes the catalogue does not have. */
const SPOOFS = [
  '?error=Your+account+is+locked%2C+call+%2B1+555+0100',
  '?message=Call+us+on+%2B1+555+0100',
  '?notice=Call+us+on+%2B1+555+0100',
  '?notice=unknown',
  '?notice=constructor',
  '?notice=__proto__',
  '?notice=toString',
  '?notice=signed_out&notice=forbidden',
  '?notice[kind]=error',
];

describe('notices: a redirect carries a code, the page shows the catalogue text (issue 26, finding 6)', () => {
  let admin: PageSession;
  before(async () => {
    admin = await signedIn('admin');
  });

  it('when a notice is added to a path, then it is the code alone, joined to a query the path has', () => {
    assert.equal(withNotice('/admin/users', 'user_deleted'), '/admin/users?notice=user_deleted');
    assert.equal(withNotice('/auth/login?redirect=%2Fadmin', 'forbidden'), '/auth/login?redirect=%2Fadmin&notice=forbidden');
    assert.deepEqual(noticeOf({ notice: 'forbidden' }), { message: null, error: 'Insufficient permissions' });
    assert.deepEqual(noticeOf({ notice: 'signed_out', message: 'Call us' }), { message: 'You have been signed out.', error: null });
  });

  for (const path of ['/auth/login', '/auth/forgot-password', '/admin', '/admin/profile']) {
    it(`when ${path} is opened with notice text or an unknown code in the query, then it shows no notice at all`, async () => {
      for (const query of SPOOFS) {
        const res = await request(ctx().app).get(`${path}${query}`).set('Accept', 'text/html').set('Cookie', path.startsWith('/admin') ? admin.cookie : '');
        assert.equal(res.status, 200, `${path}${query}`);
        assert.deepEqual(noticesOn(res.text), [], `${path}${query}`);
        // Whole phrases: the signed-in user's random address could hold "555" or "call" by chance.
        assert.ok(!/call us|is locked|555 0100/i.test(res.text.replace(/<script[\s\S]*?<\/script>/g, '')), `${path}${query}: no query text on the page`);
      }
    });
  }

  it('when each known code is given, then the sign-in page and an admin page show its text, as a message or an error', async () => {
    assert.ok(NOTICE_CODES.length > 40, 'the catalogue has every notice');
    for (const code of NOTICE_CODES) {
      const notice = lookUpNotice(code);
      assert.ok(notice, code);
      const expected = [{ role: notice.kind === 'message' ? 'status' : 'alert', text: escapeHtml(notice.text) }];
      const login = await request(ctx().app).get(`/auth/login?notice=${code}`).set('Accept', 'text/html');
      assert.deepEqual(noticesOn(login.text), expected, `/auth/login?notice=${code}`);
      const page = await request(ctx().app).get(`/admin/profile?notice=${code}`).set('Cookie', admin.cookie);
      assert.deepEqual(noticesOn(page.text), expected, `/admin/profile?notice=${code}`);
    }
  });

  it('when a viewer opens an admin page they may not, then the sign-in page shows the catalogue refusal, not query text', async () => {
    const viewer = await signedIn('viewer');
    const res = await request(ctx().app).get('/admin/users').set('Cookie', viewer.cookie);
    assert.equal(res.headers.location, '/auth/login?notice=forbidden');
    const page = await request(ctx().app).get(res.headers.location).set('Accept', 'text/html');
    assert.deepEqual(noticesOn(page.text), [{ role: 'alert', text: 'Insufficient permissions' }]);
  });
});
