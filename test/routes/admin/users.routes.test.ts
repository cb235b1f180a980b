import assert from 'node:assert/strict';
import request from 'supertest';
import type { Express } from 'express';
import { ConnectionError } from 'sequelize';
import { buildApp, ctx, uniqueEmail } from '../../support/context';
import { createTestUser } from '../../support/users';
import { formBody, location, sessionFor, signedIn, type PageSession } from '../../support/admin-pages';
import { defineUserProfile } from '../../../src/profiles/profile-definition';

const definition = defineUserProfile({
  fields: [
    { name: 'team', label: 'Team', type: 'string', validation: { pattern: '^[a-z]+$' } },
    { name: 'seats', label: 'Seats', type: 'number', validation: { min: 1, max: 10 } },
    { name: 'newsletter', label: 'Newsletter', type: 'boolean' },
    { name: 'plan', label: 'Plan', type: 'select', options: ['free', 'pro'] },
    { name: 'topics', label: 'Topics', type: 'multiselect', options: ['api', 'ui'] },
    { name: 'address', label: 'Address', type: 'object', fields: [{ name: 'city', label: 'City', type: 'string' }, { name: 'vault', label: 'Vault', type: 'string', hidden: true }] },
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

describe('admin user pages', () => {
  let app: Express;
  before(() => {
    app = buildApp({ profileDefinition: definition });
  });

  describe('guard', () => {
    it('when not signed in, then each page sends to sign-in with the way back', async () => {
      for (const path of ['/admin/users', '/admin/users/new', '/admin/users/abc/edit']) {
        const res = await request(app).get(path);
        assert.equal(res.status, 302);
        assert.equal(location(res), `/auth/login?redirect=${encodeURIComponent(path)}`);
      }
    });

    it('when an editor or a viewer opens them, then 302 to sign-in with the reason', async () => {
      for (const role of ['editor', 'viewer'] as const) {
        const session = await signedIn(role);
        const res = await request(app).get('/admin/users').set('Cookie', session.cookie);
        assert.equal(res.status, 302);
        assert.equal(location(res), '/auth/login?notice=forbidden');
      }
    });
  });

  describe('list', () => {
    it('when searching and filtering, then the table shows the matches with escaped names, with headers and paging', async () => {
      const session = await signedIn('admin');
      const marker = `zq${Date.now()}`;
      await createTestUser('author', { username: `${marker}_a`, firstName: '<script>alert(1)</script>', lastName: '"><img src=x>' });
      await createTestUser('viewer', { username: `${marker}_b` });
      const res = await request(app).get(`/admin/users?q=${marker}&role=author`).set('Cookie', session.cookie);
      assert.equal(res.status, 200);
      assert.match(res.text, /<th scope="col">Email<\/th>/);
      assert.ok(res.text.includes(`${marker}_a`));
      assert.ok(!res.text.includes(`${marker}_b`));
      assert.ok(res.text.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
      assert.ok(!res.text.includes('<script>alert(1)'));
      assert.ok(!res.text.includes('<img src=x>'));
      assert.match(res.text, /1 user found/);
    });

    it('when a filter is invalid, then the page says so and shows the first page', async () => {
      const session = await signedIn('admin');
      const res = await request(app).get('/admin/users?page=abc').set('Cookie', session.cookie);
      assert.equal(res.status, 200);
      assert.match(res.text, /Filter ignored: page must be a whole number/);
    });
  });

  describe('create', () => {
    it('when the form has errors, then they show next to the fields with the values kept but never the password', async () => {
      const session = await signedIn('admin');
      const res = await post(app, session, '/admin/users/new', { email: 'not-an-email', password: 'short', username: 'x', firstName: '<b>Ann</b>', lastName: '', role: 'editor' });
      assert.equal(res.status, 400);
      assert.match(res.text, /data-field="email"[\s\S]*?class="field-error"[^>]*>must be a valid email address</);
      assert.match(res.text, /data-field="password"[\s\S]*?class="field-error"[^>]*>must be at least 8 characters</);
      assert.match(res.text, /data-field="username"[\s\S]*?class="field-error"[^>]*>must be at least 3 characters</);
      assert.ok(res.text.includes('value="not-an-email"'));
      assert.ok(res.text.includes('value="&lt;b&gt;Ann&lt;/b&gt;"'));
      assert.ok(!res.text.includes('value="short"'));
      assert.match(res.text, /<option value="editor" selected>/);
    });

    it('when the email is taken, then the conflict shows at the email field', async () => {
      const session = await signedIn('admin');
      const res = await post(app, session, '/admin/users/new', { email: session.user.email, password: '', role: 'viewer' });
      assert.equal(res.status, 409);
      assert.match(res.text, /data-field="email"[\s\S]*?class="field-error"[^>]*>User with this email or username already exists</);
    });

    it('when the post has no _csrf, then 403 and no user is made', async () => {
      const session = await signedIn('admin');
      const email = uniqueEmail('nocsrf');
      const res = await post(app, session, '/admin/users/new', { email, role: 'viewer' }, false);
      assert.equal(res.status, 403);
      assert.equal(await ctx().models.User.count({ where: { email } }), 0);
    });

    it('when the form was opened before the admin signed in again, then 403 with a page that says what happened and what to do', async () => {
      const before = await signedIn('admin');
      const now = await sessionFor(before.user);
      const email = uniqueEmail('stale');

      const res = await post(app, { ...now, csrf: before.csrf }, '/admin/users/new', { email, role: 'viewer' });

      assert.equal(res.status, 403);
      assert.match(res.text, /role="alert">Invalid CSRF token</);
      assert.match(res.text, /opened before you signed in again \(here or in another tab\), so it was not sent\. Reload the page/);
      assert.equal(await ctx().models.User.count({ where: { email } }), 0);
      const json = await request(app).post('/admin/users/new').set('Cookie', now.cookie).send({ email, _csrf: before.csrf });
      assert.deepEqual(json.body, { error: 'Invalid CSRF token' }, 'JSON answers keep the contract');
    });

    it('when the form is valid, then the user is created and the edit page confirms it', async () => {
      const session = await signedIn('admin');
      const email = uniqueEmail('created');
      const res = await post(app, session, '/admin/users/new', { email, password: 'a good password', username: '', firstName: 'Ann', lastName: '', role: 'author' });
      assert.equal(res.status, 303);
      const user = await ctx().models.User.findOne({ where: { email } });
      assert.ok(user);
      assert.equal(user.role, 'author');
      assert.equal(user.firstName, 'Ann');
      assert.equal(location(res), `/admin/users/${user.id}/edit?notice=user_created`);
      const page = await request(app).get(location(res)).set('Cookie', session.cookie);
      assert.ok(page.text.includes('User created'));
      assert.ok(page.text.includes(email), 'the edit page names the user from its own data');
    });
  });

  describe('edit', () => {
    it('when opened, then account, built-in and visible custom fields show; hidden ones never', async () => {
      const session = await signedIn('admin');
      const target = await createTestUser('viewer');
      await ctx().models.UserProfile.update(
        { data: { team: 'core', internalNotes: 'SECRET-NOTE', address: { city: 'Oslo', vault: 'SECRET-VAULT' } }, dateOfBirth: 631152000 },
        { where: { userId: target.id } },
      );
      const res = await request(app).get(`/admin/users/${target.id}/edit`).set('Cookie', session.cookie);
      assert.equal(res.status, 200);
      for (const label of ['Username', 'First name', 'Last name', 'Role', 'Active (may sign in)', 'Display name', 'Bio', 'Website', 'Date of birth', 'Team', 'Seats', 'City']) {
        assert.ok(res.text.includes(`${label}`), label);
      }
      assert.ok(res.text.includes('value="1990-01-01"'));
      assert.ok(res.text.includes('value="Oslo"'));
      assert.ok(!res.text.includes('SECRET-NOTE'));
      assert.ok(!res.text.includes('SECRET-VAULT'));
      assert.ok(!res.text.includes('Internal notes'));
    });

    it('when saved, then names, role, built-in and custom fields change; hidden fields are kept; the date is a unix timestamp', async () => {
      const session = await signedIn('admin');
      const target = await createTestUser('viewer');
      await ctx().models.UserProfile.update(
        { data: { internalNotes: 'keep me', address: { city: 'Oslo', vault: 'keep too' }, seats: 4 } },
        { where: { userId: target.id } },
      );
      const res = await post(app, session, `/admin/users/${target.id}/edit`, {
        username: target.username, firstName: 'New', lastName: '', role: 'editor', active: ['off', 'on'],
        display_name: 'Newbie', bio: '', company: 'ACME', job_title: '', website: 'https://example.com', location: '', date_of_birth: '2000-02-29',
        team: 'ops', seats: '', newsletter: 'on', plan: 'pro', topics: ['api', 'ui'], 'address.city': 'Bergen',
      });
      assert.equal(res.status, 303, res.text);
      assert.match(location(res), /\?notice=user_saved$/);
      const user = await ctx().models.User.findByPk(target.id, { rejectOnEmpty: true });
      assert.equal(user.firstName, 'New');
      assert.equal(user.lastName, null);
      assert.equal(user.role, 'editor');
      const profile = await ctx().models.UserProfile.findByPk(target.id, { rejectOnEmpty: true });
      assert.deepEqual(profile.data, { internalNotes: 'keep me', address: { city: 'Bergen', vault: 'keep too' }, team: 'ops', newsletter: true, plan: 'pro', topics: ['api', 'ui'] });
      assert.equal(profile.displayName, 'Newbie');
      assert.equal(profile.company, 'ACME');
      assert.equal(profile.bio, null);
      assert.equal(profile.dateOfBirth, Date.UTC(2000, 1, 29) / 1000);
    });

    it('when a hidden field changes between the page reading the profile and saving it, then the newer value stays', async () => {
      const session = await signedIn('admin');
      const target = await createTestUser('viewer');
      const { UserProfile } = ctx().models;
      await UserProfile.update({ data: { internalNotes: 'old', address: { city: 'Oslo', vault: 'old vault' } } }, { where: { userId: target.id } });
      // The API's change commits right after the form handler's first read of the profile, before its write.
      let changed = false;
      UserProfile.addHook('afterFind', 'concurrent-change', async () => {
        if (changed) return;
        changed = true;
        await UserProfile.update({ data: { internalNotes: 'new', address: { city: 'Oslo', vault: 'new vault' } } }, { where: { userId: target.id } });
      });
      try {
        const res = await post(app, session, `/admin/users/${target.id}/edit`, {
          username: target.username, firstName: '', lastName: '', role: 'viewer', active: ['off', 'on'], team: 'ops', 'address.city': 'Bergen',
        });
        assert.equal(res.status, 303, res.text);
      } finally {
        UserProfile.removeHook('afterFind', 'concurrent-change');
      }
      assert.ok(changed);
      const profile = await UserProfile.findByPk(target.id, { rejectOnEmpty: true });
      assert.deepEqual(profile.data, { internalNotes: 'new', address: { city: 'Bergen', vault: 'new vault' }, team: 'ops', newsletter: false, topics: [] });
    });

    it('when the profile write fails after the account was saved, then the account change is rolled back too', async () => {
      const session = await signedIn('admin');
      const target = await createTestUser('viewer', { firstName: 'Before' });
      const { UserProfile, User } = ctx().models;
      UserProfile.addHook('beforeSave', 'failing-write', () => {
        throw new ConnectionError(new Error('connection lost'));
      });
      try {
        const res = await post(app, session, `/admin/users/${target.id}/edit`, {
          username: target.username, firstName: 'After', lastName: '', role: 'author', active: ['off', 'on'], team: 'ops',
        });
        assert.equal(res.status, 503);
      } finally {
        UserProfile.removeHook('beforeSave', 'failing-write');
      }
      const user = await User.findByPk(target.id, { rejectOnEmpty: true });
      assert.equal(user.firstName, 'Before');
      assert.equal(user.role, 'viewer');
      assert.equal(user.tokenEpoch, target.tokenEpoch);
    });

    it('when values are invalid, then each error is at its field, values are kept and nothing is saved', async () => {
      const session = await signedIn('admin');
      const target = await createTestUser('viewer', { firstName: 'Before' });
      const res = await post(app, session, `/admin/users/${target.id}/edit`, {
        username: target.username, firstName: 'After', lastName: '', role: 'viewer', active: ['off', 'on'],
        date_of_birth: '2001-02-30', team: 'Not Valid', seats: '42', display_name: '"><script>x</script>',
      });
      assert.equal(res.status, 400);
      assert.match(res.text, /data-field="date_of_birth"[\s\S]*?class="field-error"[^>]*>must be a date/);
      // Built-in errors are reported first; the custom fields are judged once those pass.
      assert.ok(res.text.includes('value="Not Valid"'));
      assert.ok(res.text.includes('value="&#34;&gt;&lt;script&gt;x&lt;/script&gt;"'));
      const fixed = await post(app, session, `/admin/users/${target.id}/edit`, {
        username: target.username, firstName: 'After', lastName: '', role: 'viewer', active: ['off', 'on'], date_of_birth: '', team: 'Not Valid', seats: '42',
      });
      assert.equal(fixed.status, 400);
      assert.match(fixed.text, /data-field="team"[\s\S]*?class="field-error"[^>]*>format is invalid</);
      assert.match(fixed.text, /data-field="seats"[\s\S]*?class="field-error"[^>]*>must be at most 10</);
      assert.equal((await ctx().models.User.findByPk(target.id, { rejectOnEmpty: true })).firstName, 'Before');
      const emptied = await post(app, session, `/admin/users/${target.id}/edit`, { username: '  ', firstName: 'After', lastName: '', role: 'viewer', active: ['off', 'on'] });
      assert.equal(emptied.status, 400);
      assert.match(emptied.text, /data-field="username"[\s\S]*?class="field-error"[^>]*>is required</);
    });

    it('when the last active admin would be demoted or deactivated, then the rule shows at that field and nothing of the post is saved', async () => {
      await ctx().models.User.update({ role: 'editor' }, { where: { role: 'admin' } });
      const session = await signedIn('admin');
      const demote = await post(app, session, `/admin/users/${session.user.id}/edit`, {
        username: session.user.username, firstName: 'Renamed', display_name: 'Not saved', role: 'editor', active: ['off', 'on'],
      });
      assert.equal(demote.status, 409);
      assert.match(demote.text, /data-field="role"[\s\S]*?class="field-error"[^>]*>This change would leave no active admin/);
      const deactivate = await post(app, session, `/admin/users/${session.user.id}/edit`, { username: session.user.username, role: 'admin', active: 'off' });
      assert.equal(deactivate.status, 409);
      assert.match(deactivate.text, /data-field="active"[\s\S]*?class="field-error"[^>]*>This change would leave no active admin/);
      const self = await ctx().models.User.findByPk(session.user.id, { rejectOnEmpty: true });
      assert.equal(self.role, 'admin');
      assert.equal(self.active, true);
      assert.notEqual(self.firstName, 'Renamed');
      const profile = await ctx().models.UserProfile.findByPk(session.user.id, { rejectOnEmpty: true });
      assert.notEqual(profile.displayName, 'Not saved', 'the profile part of a refused post is not saved either');
    });
  });

  describe('delete', () => {
    it('when not confirmed, then nothing is deleted and the page asks for the tick', async () => {
      const session = await signedIn('admin');
      const target = await createTestUser('viewer');
      const res = await post(app, session, `/admin/users/${target.id}/delete`, {});
      assert.equal(res.status, 400);
      assert.match(res.text, /data-field="confirm"[\s\S]*?class="field-error"[^>]*>Tick the box/);
      assert.ok(await ctx().models.User.findByPk(target.id));
    });

    it('when confirmed, then the user is gone and the list confirms it; the last admin cannot be deleted', async () => {
      const session = await signedIn('admin');
      const target = await createTestUser('viewer');
      const res = await post(app, session, `/admin/users/${target.id}/delete`, { confirm: ['off', 'on'] });
      assert.equal(res.status, 303);
      assert.match(location(res), /^\/admin\/users\?notice=user_deleted$/);
      assert.equal(await ctx().models.User.findByPk(target.id), null);

      await ctx().models.User.update({ role: 'editor' }, { where: { role: 'admin' } });
      await ctx().models.User.update({ role: 'admin' }, { where: { id: session.user.id } });
      const last = await post(app, session, `/admin/users/${session.user.id}/delete`, { confirm: 'on' });
      assert.equal(last.status, 409);
      assert.match(last.text, /data-field="confirm"[\s\S]*?class="field-error"[^>]*>This change would leave no active admin/);
    });

    it('when the delete is posted twice at once (a double click), then both land on the list: one deleted it, the other says it already was', async () => {
      const session = await signedIn('admin');
      const target = await createTestUser('viewer');

      const answers = await Promise.all([1, 2].map(() => post(app, session, `/admin/users/${target.id}/delete`, { confirm: ['off', 'on'] })));

      assert.deepEqual(answers.map((res) => res.status), [303, 303]);
      const places = answers.map((res) => location(res)).sort();
      assert.deepEqual(places, ['/admin/users?notice=user_deleted', '/admin/users?notice=user_gone']);
      assert.equal(await ctx().models.User.findByPk(target.id), null);
    });
  });
});

describe('admin form posts with odd bodies', () => {
  it('when a form post has no body or a JSON array, then it is an empty form: field errors, never a 500', async () => {
    const session = await signedIn('admin');
    const target = await createTestUser('viewer');
    for (const path of [`/admin/users/${target.id}/edit`, '/admin/profile', '/admin/users/new', '/admin/content/new', '/admin/collections']) {
      const empty = await request(ctx().app).post(path).set('Cookie', session.cookie).set('X-CSRF-Token', session.csrf).set('Accept', 'text/html');
      assert.ok(empty.status >= 400 && empty.status < 500, `${path}: ${empty.status}`);
      const array = await request(ctx().app).post(path).set('Cookie', session.cookie).set('X-CSRF-Token', session.csrf).set('Accept', 'text/html').send([1, 2]);
      assert.ok(array.status >= 400 && array.status < 500, `${path}: ${array.status}`);
    }
    const after = await ctx().models.User.findByPk(target.id, { rejectOnEmpty: true });
    assert.equal(after.active, true, 'a post without the form changes nothing');
  });
});
