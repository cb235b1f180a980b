import assert from 'node:assert/strict';
import request from 'supertest';
import type { Express } from 'express';
import { buildApp, ctx } from '../../support/context';
import { createTestUser, tokenFor } from '../../support/users';
import { PASSWORD, cookieHeader, makeUser, setCookies } from '../../support/auth';
import { startSmtpSink, type SmtpSink } from '../../support/smtp-sink';
import { magicLinkApp, signInByLink } from '../../support/magic-link';
import { formBody, location, sessionFor, signedIn, type PageSession } from '../../support/admin-pages';
import { defineUserProfile } from '../../../src/profiles/profile-definition';

const definition = defineUserProfile({
  fields: [
    { name: 'team', label: 'Team', type: 'string', required: true, default: 'core', validation: { pattern: '^[a-z]+$' } },
    { name: 'prefs', label: 'Preferences', type: 'json' },
    { name: 'internalNotes', label: 'Internal notes', type: 'textarea', hidden: true },
  ],
});

function post(app: Express, session: PageSession, path: string, fields: Record<string, string | string[]>, withCsrf = true) {
  return request(app)
    .post(path)
    .set('Cookie', session.cookie)
    .set('Accept', 'text/html')
    .type('form')
    .send(formBody(withCsrf ? { _csrf: session.csrf, ...fields } : fields));
}

describe('admin profile page', () => {
  let app: Express;
  before(() => {
    app = buildApp({ profileDefinition: definition });
  });

  it('when not signed in, then 302 to sign-in with the way back', async () => {
    const res = await request(app).get('/admin/profile');
    assert.equal(res.status, 302);
    assert.equal(location(res), '/auth/login?redirect=%2Fadmin%2Fprofile');
  });

  it('when each account center section is asked for, then signed out it sends to sign-in and back, signed in it is its own page with its link marked current', async () => {
    const sections = { '/admin/profile': 'Profile', '/admin/profile/security': 'Security', '/admin/profile/sessions': 'Sessions', '/admin/profile/apps': 'Apps and API keys', '/admin/profile/data': 'Your data' };
    const session = await signedIn('viewer');
    for (const [path, label] of Object.entries(sections)) {
      assert.equal(location(await request(app).get(path)), `/auth/login?redirect=${encodeURIComponent(path)}`);
      const res = await request(app).get(path).set('Cookie', session.cookie);
      assert.equal(res.status, 200, path);
      assert.equal(res.headers['cache-control'], 'no-store');
      const marked = [...res.text.matchAll(/<a href="([^"]+)" aria-current="page">([^<]+)<\/a>/g)].map((match) => `${match[1]} ${match[2]}`);
      assert.deepEqual(marked, ['/admin/profile Profile', `${path} ${label}`], `${path}: the site menu and the section navigation`);
    }
  });

  it('when a sessions or API key card posts, then it answers on its own section', async () => {
    const session = await signedIn('author');
    assert.equal(location(await post(app, session, '/admin/profile/sessions/revoke-others', {})), '/admin/profile/sessions?notice=sessions_revoked');
    assert.equal(location(await post(app, session, '/admin/profile/sessions/no-such-session/revoke', {})), '/admin/profile/sessions?notice=session_gone');
    assert.equal(location(await post(app, session, '/admin/profile/api-keys/no-such-key/revoke', {})), '/admin/profile/apps?notice=api_key_gone');
  });

  it('when a viewer opens it, then their details show there, and the password form and linked accounts on Security', async () => {
    const session = await signedIn('viewer', { firstName: '<i>Vi</i>' });
    const res = await request(app).get('/admin/profile').set('Cookie', session.cookie);
    assert.equal(res.status, 200);
    assert.equal(res.headers['cache-control'], 'no-store');
    assert.ok(res.text.includes('value="&lt;i&gt;Vi&lt;/i&gt;"'));
    for (const label of ['Username', 'First name', 'Display name', 'Date of birth', 'Team', 'Preferences', 'New email address']) {
      assert.ok(res.text.includes(label), label);
    }
    assert.ok(!res.text.includes('Internal notes'));
    assert.ok(!res.text.includes('Current password'), 'the password card is on Security');
    const security = await request(app).get('/admin/profile/security').set('Cookie', session.cookie);
    assert.equal(security.status, 200);
    for (const label of ['Current password', 'New password', 'Linked accounts', 'Two-factor authentication']) assert.ok(security.text.includes(label), label);
    assert.match(security.text, /No sign-in accounts are linked/);
  });

  it('when saved, then names and profile change and the hidden field is kept', async () => {
    const session = await signedIn('author');
    await ctx().models.UserProfile.update({ data: { team: 'core', internalNotes: 'keep' } }, { where: { userId: session.user.id } });
    const res = await post(app, session, '/admin/profile', {
      username: session.user.username, firstName: 'Ada', lastName: 'L', display_name: 'Ada', date_of_birth: '1815-12-10', team: 'math', prefs: '{"theme":"dark"}',
    });
    assert.equal(res.status, 303);
    assert.equal(location(res), '/admin/profile?notice=profile_saved');
    const user = await ctx().models.User.findByPk(session.user.id, { rejectOnEmpty: true });
    assert.equal(user.firstName, 'Ada');
    const profile = await ctx().models.UserProfile.findByPk(session.user.id, { rejectOnEmpty: true });
    assert.deepEqual(profile.data, { team: 'math', internalNotes: 'keep', prefs: { theme: 'dark' } });
    assert.equal(profile.dateOfBirth, Date.UTC(1815, 11, 10) / 1000);
    const page = await request(app).get(location(res)).set('Cookie', session.cookie);
    assert.ok(page.text.includes('value="1815-12-10"'));
    assert.match(page.text, /role="status">Profile saved</);
  });

  it('when the page is saved unchanged, then a json field keeps its value and its type (a string "123" stays a string)', async () => {
    const session = await signedIn('viewer');
    const unescape = (html: string) => html.replace(/&#34;|&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&#39;/g, "'").replace(/&amp;/g, '&');
    for (const prefs of ['123', 'true', 'null', '"quoted"', 'plain words', { theme: 'dark', size: 2 }, [1, 'a'], 42, false]) {
      await ctx().models.UserProfile.update({ data: { team: 'core', prefs } }, { where: { userId: session.user.id } });
      const page = await request(app).get('/admin/profile').set('Cookie', session.cookie);
      const shown = unescape(/<textarea id="field-prefs" name="prefs"[^>]*>([\s\S]*?)<\/textarea>/.exec(page.text)?.[1] ?? '');

      const saved = await post(app, session, '/admin/profile', { username: session.user.username, team: 'core', prefs: shown });

      assert.equal(saved.status, 303, JSON.stringify(prefs));
      const profile = await ctx().models.UserProfile.findByPk(session.user.id, { rejectOnEmpty: true });
      assert.deepEqual(profile.data.prefs, prefs, `shown as ${shown}`);
    }
  });

  it('when a value is invalid or the username taken, then the error is at the field and the typed values stay', async () => {
    const session = await signedIn('viewer');
    const other = await createTestUser('viewer');
    const bad = await post(app, session, '/admin/profile', { username: session.user.username, firstName: 'Typed', team: 'Not Valid' });
    assert.equal(bad.status, 400);
    assert.match(bad.text, /data-field="team"[\s\S]*?class="field-error"[^>]*>format is invalid</);
    assert.ok(bad.text.includes('value="Typed"'));
    const taken = await post(app, session, '/admin/profile', { username: other.username, team: 'core' });
    assert.equal(taken.status, 409);
    assert.match(taken.text, /data-field="username"[\s\S]*?class="field-error"[^>]*>User with this email or username already exists</);
    const profile = await ctx().models.UserProfile.findByPk(session.user.id, { rejectOnEmpty: true });
    assert.notEqual((profile.data as Record<string, unknown>).team, 'core', 'a refused post saves nothing, the profile part neither');
  });

  it('when the post has no _csrf, then 403 and nothing changes', async () => {
    const session = await signedIn('viewer', { firstName: 'Same' });
    const res = await post(app, session, '/admin/profile', { username: session.user.username, firstName: 'Changed' }, false);
    assert.equal(res.status, 403);
    assert.equal((await ctx().models.User.findByPk(session.user.id, { rejectOnEmpty: true })).firstName, 'Same');
  });

  describe('change password', () => {
    it('when the current password is wrong or the new one too short, then the error is at the field and nothing changes', async () => {
      const session = await sessionFor(await makeUser({ role: 'viewer' }));
      const wrong = await post(app, session, '/admin/profile/password', { currentPassword: 'not it at all', newPassword: 'a brand new password' });
      assert.equal(wrong.status, 400);
      assert.match(wrong.text, /data-field="currentPassword"[\s\S]*?class="field-error"[^>]*>is not your current password</);
      assert.ok(!wrong.text.includes('not it at all'));
      assert.ok(!wrong.text.includes('a brand new password'));
      const short = await post(app, session, '/admin/profile/password', { currentPassword: PASSWORD, newPassword: 'short' });
      assert.equal(short.status, 400);
      assert.match(short.text, /data-field="newPassword"[\s\S]*?class="field-error"[^>]*>must be at least 8 characters</);
      const login = await request(app).post('/auth/login').send({ email: session.user.email, password: PASSWORD });
      assert.equal(login.status, 200);
    });

    it('when the current password is guessed over and over, then the sign-in rate limit stops it', async () => {
      const session = await sessionFor(await makeUser({ role: 'viewer' }));
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 6; attempt += 1) {
        statuses.push((await post(app, session, '/admin/profile/password', { currentPassword: `guess ${attempt}`, newPassword: 'a brand new password' })).status);
      }
      assert.deepEqual(statuses, [400, 400, 400, 400, 400, 429]);
    });

    it('when changed, then every other token ends, this browser stays signed in, and the new password signs in', async () => {
      const user = await makeUser({ role: 'editor' });
      const session = await sessionFor(user);
      const otherDevice = await tokenFor(user);
      assert.equal((await request(app).get('/auth/me').set('Authorization', `Bearer ${otherDevice}`)).status, 200);

      const res = await post(app, session, '/admin/profile/password', { currentPassword: PASSWORD, newPassword: 'a brand new password' });
      assert.equal(res.status, 303);
      assert.equal(location(res), '/admin/profile/security?notice=password_changed');

      assert.equal((await request(app).get('/auth/me').set('Authorization', `Bearer ${otherDevice}`)).status, 401);
      assert.equal((await request(app).get('/admin/profile').set('Cookie', session.cookie)).status, 302, 'the old cookie is dead too');
      const fresh = await request(app).get('/admin/profile').set('Cookie', cookieHeader(res));
      assert.equal(fresh.status, 200);
      const activity = await ctx().models.ActivityLog.findOne({ where: { action: 'auth.password_changed', userId: user.id } });
      assert.ok(activity);
      assert.equal((await request(app).post('/auth/login').send({ email: user.email, password: PASSWORD })).status, 401);
      assert.equal((await request(app).post('/auth/login').send({ email: user.email, password: 'a brand new password' })).status, 200);
    });
  });
});

describe('admin pages signed in by a magic-link server session only', () => {
  let sink: SmtpSink;
  let app: Express;
  before(async () => {
    sink = await startSmtpSink();
    app = magicLinkApp(sink);
  });
  after(async () => {
    await sink?.stop();
  });

  it('when only auth_session is sent, then pages open, forms post with _csrf, and a password change ends that session', async () => {
    const user = await makeUser({ role: 'editor' });
    const signIn = await signInByLink(app, sink, user.email);
    const cookies = setCookies(signIn);
    const csrf = cookies.csrf_token.value;
    const sessionCookie = `auth_session=${encodeURIComponent(cookies.auth_session.value)}; csrf_token=${encodeURIComponent(csrf)}`;

    const page = await request(app).get('/admin/content').set('Cookie', sessionCookie);
    assert.equal(page.status, 200);
    assert.ok(page.text.includes(`name="_csrf" value="${csrf}"`));

    const refused = await request(app).post('/admin/profile').set('Cookie', sessionCookie).type('form').send(formBody({ username: user.username, firstName: 'Forged' }));
    assert.equal(refused.status, 403);
    const saved = await request(app).post('/admin/profile').set('Cookie', sessionCookie).type('form').send(formBody({ _csrf: csrf, username: user.username, firstName: 'Sessioned' }));
    assert.equal(saved.status, 303);
    assert.equal((await ctx().models.User.findByPk(user.id, { rejectOnEmpty: true })).firstName, 'Sessioned');

    const changed = await request(app).post('/admin/profile/password').set('Cookie', sessionCookie).type('form')
      .send(formBody({ _csrf: csrf, currentPassword: PASSWORD, newPassword: 'a session-born password' }));
    assert.equal(changed.status, 303);
    const after = await request(app).get('/admin/content').set('Cookie', `auth_session=${encodeURIComponent(cookies.auth_session.value)}`);
    assert.equal(after.status, 302, 'the old session has ended');
    assert.equal((await request(app).get('/admin/content').set('Cookie', cookieHeader(changed))).status, 200, 'this browser got a fresh token');
  });
});
