import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import request from 'supertest';
import { ctx, resetDatabase, uniqueEmail } from '../support/context';
import { PASSWORD, appWith, makeUser, nextClientIp, payloadOf, proxiedApp, setCookies } from '../support/auth';
import { defineUserProfile } from '../../src/profiles/profile-definition';

const DUPLICATE = { error: 'User with this email or username already exists' };
const DISABLED = { error: 'Registration is currently disabled' };

async function disableRegistration(): Promise<void> {
  await ctx().models.Setting.upsert({ key: 'security.allowRegistration', value: false });
}

describe('registration', () => {
  describe('the first user', () => {
    beforeEach(resetDatabase);

    it('when the first user registers, then 201 as admin with the Login response and cookies; the next one is a viewer', async () => {
      const first = await request(ctx().app).post('/auth/register').send({ email: uniqueEmail('first'), password: PASSWORD });
      assert.equal(first.status, 201);
      assert.equal(first.body.user.role, 'admin');
      assert.equal(payloadOf(first.body.token).role, 'admin');
      assert.equal(first.headers['cache-control'], 'no-store');
      const cookies = setCookies(first);
      assert.equal(cookies.auth_token.value, first.body.token);
      assert.ok(cookies.csrf_token.value);

      const second = await request(ctx().app).post('/auth/register').send({ email: uniqueEmail('second'), password: PASSWORD });
      assert.equal(second.status, 201);
      assert.equal(second.body.user.role, 'viewer');
    });

    it('when twenty first registrations race, then exactly one becomes admin and all others viewers', async () => {
      const app = proxiedApp();
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          request(app).post('/auth/register').set('X-Forwarded-For', nextClientIp()).send({ email: uniqueEmail(`race${i}`), password: PASSWORD }),
        ),
      );
      assert.deepEqual(results.map((res) => res.status), Array(20).fill(201));
      assert.equal(results.filter((res) => res.body.user.role === 'admin').length, 1);
      assert.equal(await ctx().models.User.count({ where: { role: 'admin' } }), 1);
      assert.equal(await ctx().models.User.count(), 20);
      assert.equal(await ctx().models.UserProfile.count(), 20);
    });

    it('when registration is disabled, then the very first user may still register (as admin), the second gets 403', async () => {
      await disableRegistration();
      const first = await request(ctx().app).post('/auth/register').send({ email: uniqueEmail(), password: PASSWORD });
      assert.equal(first.status, 201);
      assert.equal(first.body.user.role, 'admin');
      const second = await request(ctx().app).post('/auth/register').send({ email: uniqueEmail(), password: PASSWORD });
      assert.equal(second.status, 403);
      assert.deepEqual(second.body, DISABLED);
      assert.equal(await ctx().models.User.count(), 1);
    });

    it('when users already exist but none was created through registration (seeded), then a new registrant is a viewer', async () => {
      await makeUser({ role: 'editor' });
      const res = await request(ctx().app).post('/auth/register').send({ email: uniqueEmail(), password: PASSWORD });
      assert.equal(res.status, 201);
      assert.equal(res.body.user.role, 'viewer');
    });
  });

  describe('later users', () => {
    before(async () => {
      // Make sure the bootstrap admin exists, so this block's registrants are viewers.
      if ((await ctx().models.User.count({ where: { role: 'admin' } })) === 0) await makeUser({ role: 'admin' });
    });

    it('when role, id or active are in the body, then they are ignored', async () => {
      const res = await request(ctx().app)
        .post('/auth/register')
        .send({ email: uniqueEmail(), password: PASSWORD, role: 'admin', id: 'mine', active: false, somethingElse: 1 });
      assert.equal(res.status, 201);
      assert.equal(res.body.user.role, 'viewer');
      assert.notEqual(res.body.user.id, 'mine');
      const row = await ctx().models.User.findByPk(res.body.user.id);
      assert.equal(row?.active, true);
      assert.equal(row?.role, 'viewer');
    });

    it('when the email is new, then it is stored trimmed and lower-cased, with the username defaulting to its local part', async () => {
      const email = uniqueEmail('Mixed.Case');
      const res = await request(ctx().app).post('/auth/register').send({ email: `  ${email.toUpperCase()}  `, password: PASSWORD });
      assert.equal(res.status, 201);
      assert.equal(res.body.user.email, email.toLowerCase());
      assert.equal(res.body.user.username, email.toLowerCase().split('@')[0]);
      assert.equal(res.body.user.firstName, null);
      const row = await ctx().models.User.findByPk(res.body.user.id);
      assert.match(row?.passwordHash as string, /^pbkdf2:10000:[0-9a-f]{32}:[0-9a-f]{64}$/);
      assert.ok(!JSON.stringify(res.body).includes('pbkdf2'));
      const login = await request(ctx().app).post('/auth/login').send({ email, password: PASSWORD });
      assert.equal(login.status, 200);
    });

    it('when the default username is taken or too short, then a unique one of at least 3 characters is chosen', async () => {
      const app = proxiedApp();
      const local = `dup${Date.now()}`;
      const a = await request(app).post('/auth/register').set('X-Forwarded-For', nextClientIp()).send({ email: `${local}@a.example.test`, password: PASSWORD });
      const b = await request(app).post('/auth/register').set('X-Forwarded-For', nextClientIp()).send({ email: `${local}@b.example.test`, password: PASSWORD });
      const c = await request(app).post('/auth/register').set('X-Forwarded-For', nextClientIp()).send({ email: `x@${local}.example.test`, password: PASSWORD });
      assert.equal(a.body.user.username, local);
      assert.notEqual(b.body.user.username, local);
      assert.ok(b.body.user.username.startsWith(local));
      assert.ok(c.body.user.username.length >= 3);
    });

    it('when username, firstName and lastName are given, then they are stored', async () => {
      const username = `named_${Date.now()}`;
      const res = await request(ctx().app)
        .post('/auth/register')
        .send({ email: uniqueEmail(), password: PASSWORD, username, firstName: 'Ada', lastName: 'Lovelace' });
      assert.equal(res.status, 201);
      assert.equal(res.body.user.username, username);
      assert.equal(res.body.user.firstName, 'Ada');
      assert.equal(res.body.user.lastName, 'Lovelace');
    });

    it('when the email or the username exists (any case), then 409', async () => {
      const existing = await makeUser();
      const app = proxiedApp();
      const byEmail = await request(app).post('/auth/register').set('X-Forwarded-For', nextClientIp()).send({ email: existing.email.toUpperCase(), password: PASSWORD });
      assert.equal(byEmail.status, 409);
      assert.deepEqual(byEmail.body, DUPLICATE);
      const byName = await request(app)
        .post('/auth/register')
        .set('X-Forwarded-For', nextClientIp())
        .send({ email: uniqueEmail(), password: PASSWORD, username: existing.username.toUpperCase() });
      assert.equal(byName.status, 409);
      assert.deepEqual(byName.body, DUPLICATE);
    });

    it('when the same email registers in parallel, then exactly one 201 and the rest 409', async () => {
      const app = proxiedApp();
      const email = uniqueEmail('parallel');
      const results = await Promise.all(
        Array.from({ length: 8 }, () => request(app).post('/auth/register').set('X-Forwarded-For', nextClientIp()).send({ email, password: PASSWORD })),
      );
      const statuses = results.map((res) => res.status).sort();
      assert.deepEqual(statuses, [201, 409, 409, 409, 409, 409, 409, 409]);
      for (const res of results.filter((r) => r.status === 409)) assert.deepEqual(res.body, DUPLICATE);
      assert.equal(await ctx().models.User.count({ where: { email } }), 1);
    });

    it('when fields are invalid, then 400 with field errors', async () => {
      const app = proxiedApp();
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ password: PASSWORD }, 'email'],
        [{ email: 'not-an-email', password: PASSWORD }, 'email'],
        [{ email: uniqueEmail(), password: 'short' }, 'password'],
        [{ email: uniqueEmail(), password: 'x'.repeat(129) }, 'password'],
        [{ email: uniqueEmail(), password: PASSWORD, username: 'ab' }, 'username'],
        [{ email: uniqueEmail(), password: 12345678 }, 'password'],
      ];
      for (const [body, field] of cases) {
        const res = await request(app).post('/auth/register').set('X-Forwarded-For', nextClientIp()).send(body);
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.equal(res.body.error, 'Validation failed');
        assert.ok(res.body.errors[field], `${field} in ${JSON.stringify(res.body)}`);
      }
    });

    it('when registration is disabled by an admin, then 403 and no user is created', async () => {
      await disableRegistration();
      try {
        const email = uniqueEmail();
        const res = await request(ctx().app).post('/auth/register').send({ email, password: PASSWORD });
        assert.equal(res.status, 403);
        assert.deepEqual(res.body, DISABLED);
        assert.equal(await ctx().models.User.count({ where: { email } }), 0);
        const page = await request(ctx().app).get('/auth/register').set('Accept', 'text/html');
        assert.match(page.text, /Registration is currently disabled/);
      } finally {
        await ctx().models.Setting.destroy({ where: { key: 'security.allowRegistration' } });
      }
    });

    it('when a registration succeeds, then auth.register is logged without the password', async () => {
      const email = uniqueEmail('logged');
      const res = await request(ctx().app).post('/auth/register').send({ email, password: PASSWORD });
      const row = await ctx().models.ActivityLog.findOne({ where: { action: 'auth.register', email } });
      assert.ok(row);
      assert.equal(row.userId, res.body.user.id);
      assert.ok(!JSON.stringify(row.toJSON()).includes(PASSWORD));
    });

    it('when a registration is posted (JSON or form), then its password is judged once', async () => {
      // Every judgement is a message to the password-quality worker (src/credentials/password-quality.ts).
      const post = Worker.prototype.postMessage;
      const judged: string[] = [];
      Worker.prototype.postMessage = function (this: Worker, message: { password?: string; userInputs?: unknown }, ...rest: unknown[]) {
        // A judgement carries the user's own words (userInputs); a hashing thread's job does not.
        if (typeof message?.password === 'string' && Array.isArray(message.userInputs)) judged.push(message.password);
        return Reflect.apply(post, this, [message, ...rest]);
      } as typeof post;
      try {
        const json = await request(ctx().app).post('/auth/register').send({ email: uniqueEmail('judged'), password: 'judged once as json' });
        assert.equal(json.status, 201);
        const form = await request(ctx().app).post('/auth/register').type('form').send({ email: uniqueEmail('judged'), password: 'judged once as a form' });
        assert.equal(form.status, 302);
        assert.deepEqual(judged, ['judged once as json', 'judged once as a form']);
      } finally {
        Worker.prototype.postMessage = post;
      }
    });
  });

  describe('HTML form', () => {
    it('when GET /auth/register, then the form with the standard fields', async () => {
      const res = await request(ctx().app).get('/auth/register').set('Accept', 'text/html');
      assert.equal(res.status, 200);
      for (const name of ['email', 'password', 'username', 'firstName', 'lastName']) assert.match(res.text, new RegExp(`name="${name}"`));
    });

    it('when the form is posted, then 302 to /admin with the cookies', async () => {
      const email = uniqueEmail('form');
      const res = await request(ctx().app).post('/auth/register').type('form').send({ email, password: PASSWORD, username: '', firstName: 'Form' });
      assert.equal(res.status, 302);
      assert.equal(res.headers.location, '/admin');
      assert.ok(setCookies(res).auth_token.value);
      const row = await ctx().models.User.findOne({ where: { email } });
      assert.equal(row?.firstName, 'Form');
    });

    it('when the form post is invalid, then the form again with the errors and the values (not the password)', async () => {
      const res = await request(ctx().app)
        .post('/auth/register')
        .type('form')
        .set('Accept', 'text/html')
        .send({ email: 'keep-me@example.test', password: 'short', firstName: 'Kept' });
      assert.equal(res.status, 400);
      assert.match(res.text, /must be at least 8 characters/);
      assert.match(res.text, /value="Kept"/);
      assert.ok(!res.text.includes('value="short"'));
    });
  });

  describe('custom registration fields', () => {
    const definition = defineUserProfile({
      fields: [
        { name: 'company_size', label: 'Company size', type: 'number', validation: { min: 1, max: 1000 } },
        { name: 'plan', label: 'Plan', type: 'select', options: ['free', 'pro'], required: true, default: 'free' },
        { name: 'newsletter', label: 'Newsletter', type: 'boolean', default: false },
        { name: 'internal_note', type: 'string', default: 'none' },
      ],
      registrationFields: ['company_size', 'plan', 'newsletter'],
    });

    it('when registrationFields are sent as top-level keys, then they are validated, stored and answered', async () => {
      const app = appWith({ profileDefinition: definition });
      const res = await request(app).post('/auth/register').send({ email: uniqueEmail(), password: PASSWORD, company_size: 50, plan: 'pro' });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.equal(res.body.user.company_size, 50);
      assert.equal(res.body.user.plan, 'pro');
      assert.equal(res.body.user.internal_note, 'none');
      const profile = await ctx().models.UserProfile.findByPk(res.body.user.id);
      assert.deepEqual(profile?.data, { company_size: 50, plan: 'pro', newsletter: false, internal_note: 'none' });
      const me = await request(app).get('/auth/me').set('Authorization', `Bearer ${res.body.token}`);
      assert.equal(me.body.user.plan, 'pro');
    });

    it('when a required registration field with a default is left out, then the default is taken (as on a profile save)', async () => {
      const app = appWith({ profileDefinition: definition });
      const res = await request(app).post('/auth/register').send({ email: uniqueEmail(), password: PASSWORD });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.equal(res.body.user.plan, 'free');
      const profile = await ctx().models.UserProfile.findByPk(res.body.user.id);
      assert.deepEqual(profile?.data, { plan: 'free', newsletter: false, internal_note: 'none' });
    });

    it('when a registration field is invalid, then 400 naming it; a field outside registrationFields is ignored', async () => {
      const app = appWith({ profileDefinition: definition });
      const bad = await request(app).post('/auth/register').send({ email: uniqueEmail(), password: PASSWORD, company_size: 5000, plan: 'gold' });
      assert.equal(bad.status, 400);
      assert.equal(bad.body.errors.company_size, 'must be at most 1000');
      assert.match(bad.body.errors.plan, /must be one of: free, pro/);
      const sneaky = await request(app).post('/auth/register').send({ email: uniqueEmail(), password: PASSWORD, plan: 'free', internal_note: 'mine' });
      assert.equal(sneaky.status, 201);
      assert.equal(sneaky.body.user.internal_note, 'none');
    });

    it('when standard and custom fields are both invalid, then one answer names them all (JSON and form)', async () => {
      const app = appWith({ profileDefinition: definition });
      const json = await request(app).post('/auth/register').send({ email: 'nope', password: PASSWORD, username: 'ab', company_size: 5000, plan: 'gold' });
      assert.equal(json.status, 400);
      assert.deepEqual(Object.keys(json.body.errors).sort(), ['company_size', 'email', 'plan', 'username']);
      const form = await request(app).post('/auth/register').type('form').set('Accept', 'text/html').send({ email: uniqueEmail('both'), password: PASSWORD, username: 'ab', company_size: '5000', plan: 'pro' });
      assert.equal(form.status, 400);
      assert.match(form.text, /must be at most 1000/);
      assert.match(form.text, /must be at least 3 characters/);
    });

    it('when the registration form is shown and posted, then the custom fields are on it and coerced from text', async () => {
      const app = appWith({ profileDefinition: definition });
      const page = await request(app).get('/auth/register').set('Accept', 'text/html');
      assert.match(page.text, /name="company_size"/);
      assert.match(page.text, /name="plan"/);
      assert.ok(!page.text.includes('name="internal_note"'));
      const email = uniqueEmail('customform');
      const res = await request(app).post('/auth/register').type('form').send({ email, password: PASSWORD, company_size: '12', plan: 'pro', newsletter: 'on' });
      assert.equal(res.status, 302);
      const user = await ctx().models.User.findOne({ where: { email } });
      const profile = await ctx().models.UserProfile.findByPk(user?.id);
      assert.deepEqual(profile?.data, { company_size: 12, plan: 'pro', newsletter: true, internal_note: 'none' });
    });

    it('when the form is drawn, then it starts at the defaults, so a form posted as drawn stores what JSON leaving the fields out stores', async () => {
      const withDefaults = defineUserProfile({
        fields: [
          { name: 'newsletter', label: 'Newsletter', type: 'boolean', default: true },
          { name: 'topics', label: 'Topics', type: 'multiselect', options: ['a', 'b'], default: ['a'] },
          { name: 'level', label: 'Level', type: 'number', required: true, default: 3 },
          { name: 'colour', label: 'Colour', type: 'radio', options: ['red', 'blue'], default: 'blue' },
          { name: 'address', label: 'Address', type: 'object', fields: [{ name: 'city', label: 'City', type: 'string', required: true }] },
        ],
        registrationFields: ['newsletter', 'topics', 'level', 'colour', 'address'],
      });
      const app = appWith({ profileDefinition: withDefaults });
      const page = await request(app).get('/auth/register').set('Accept', 'text/html');
      assert.match(page.text, /name="newsletter" value="on" checked/);
      assert.match(page.text, /name="topics" value="a" checked/);
      assert.match(page.text, /name="colour" value="blue" checked/);
      assert.match(page.text, /name="level" value="3"/);

      // What a browser posts for the form as drawn: ticked boxes, the chosen options, the number, blank address inputs.
      const email = uniqueEmail('asdrawn');
      const res = await request(app).post('/auth/register').type('form').send({ email, password: PASSWORD, newsletter: 'on', topics: 'a', level: '3', colour: 'blue', 'address.city': '' });
      assert.equal(res.status, 302, res.text.slice(0, 500));
      const user = await ctx().models.User.findOne({ where: { email } });
      const profile = await ctx().models.UserProfile.findByPk(user?.id);
      const json = await request(app).post('/auth/register').send({ email: uniqueEmail('json'), password: PASSWORD });
      assert.deepEqual(profile?.data, (await ctx().models.UserProfile.findByPk(json.body.user.id))?.data);
      assert.deepEqual(profile?.data, { newsletter: true, topics: ['a'], level: 3, colour: 'blue' });
    });
  });
});
