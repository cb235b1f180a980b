import assert from 'node:assert/strict';
import request from 'supertest';
import type { Express } from 'express';
import { buildApp, ctx } from '../support/context';
import { createUserWithToken } from '../support/users';
import { defineUserProfile } from '../../src/profiles/profile-definition';

const definition = defineUserProfile({
  fields: [
    { name: 'plan', label: 'Plan', type: 'select', options: ['free', 'pro'], default: 'free', required: true },
    { name: 'seats', label: 'Seats', type: 'number', validation: { min: 1, max: 50 } },
    { name: 'newsletter', label: 'Newsletter', type: 'boolean', default: false },
    { name: 'team', label: 'Team', type: 'string', required: true, validation: { pattern: '^[a-z]+$' } },
    { name: 'notes', label: 'Notes', type: 'textarea', hidden: true },
    {
      name: 'address',
      label: 'Address',
      type: 'object',
      fields: [
        { name: 'city', label: 'City', type: 'string', required: true },
        { name: 'zip', label: 'ZIP', type: 'string', validation: { pattern: '^[0-9]{5}$' } },
      ],
    },
  ],
  registrationFields: ['plan', 'team'],
});

describe('profile API', () => {
  let app: Express;
  before(() => {
    app = buildApp({ profileDefinition: definition });
  });

  describe('GET /api/user-profiles/schema', () => {
    it('when anyone asks, then the definitions come back, hidden fields marked', async () => {
      const res = await request(app).get('/api/user-profiles/schema');
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.registrationFields, ['plan', 'team']);
      assert.deepEqual(res.body.fields.map((field: { name: string }) => field.name), ['plan', 'seats', 'newsletter', 'team', 'notes', 'address']);
      assert.equal(res.body.fields.find((field: { name: string }) => field.name === 'notes').hidden, true);
      assert.deepEqual(res.body.fields.find((field: { name: string }) => field.name === 'plan').options, ['free', 'pro']);
    });
  });

  describe('GET and PUT /api/user-profiles/:userId', () => {
    it('when the owner reads a new profile, then defaults are applied', async () => {
      const { user, token } = await createUserWithToken('viewer');
      const res = await request(app).get(`/api/user-profiles/${user.id}`).set('Authorization', `Bearer ${token}`);
      assert.equal(res.status, 200);
      assert.equal(res.body.userId, user.id);
      assert.deepEqual(res.body.customData, { plan: 'free', newsletter: false });
      assert.equal(res.body.profile.display_name, null);
    });

    it('when custom data is saved, then GET /auth/me merges it into the user at once, despite the verification cache', async () => {
      const { user, token } = await createUserWithToken('viewer');
      const before = await request(app).get('/auth/me').set('Authorization', `Bearer ${token}`);
      assert.equal(before.status, 200);
      assert.equal(before.body.user.plan, 'free');
      assert.equal(before.body.user.team, undefined);
      await request(app).put(`/api/user-profiles/${user.id}`).set('Authorization', `Bearer ${token}`).send({ customData: { team: 'core', plan: 'pro' } });
      const after = await request(app).get('/auth/me').set('Authorization', `Bearer ${token}`);
      assert.equal(after.body.user.id, user.id);
      assert.equal(after.body.user.email, user.email);
      assert.equal(after.body.user.role, 'viewer');
      assert.equal(after.body.user.team, 'core');
      assert.equal(after.body.user.plan, 'pro');
      assert.equal(after.body.user.newsletter, false);
    });

    it('when the owner saves valid data, then it is merged and read back', async () => {
      const { user, token } = await createUserWithToken('viewer');
      const first = await request(app)
        .put(`/api/user-profiles/${user.id}`)
        .set('Authorization', `Bearer ${token}`)
        .send({ customData: { team: 'core', seats: 3, address: { city: 'Oslo' } } });
      assert.equal(first.status, 200, JSON.stringify(first.body));
      assert.deepEqual(first.body.customData, { plan: 'free', newsletter: false, team: 'core', seats: 3, address: { city: 'Oslo' } });

      // The required `team` is already stored: a patch without it validates against the merged result.
      const second = await request(app).put(`/api/user-profiles/${user.id}`).set('Authorization', `Bearer ${token}`).send({ customData: { plan: 'pro' } });
      assert.equal(second.status, 200, JSON.stringify(second.body));
      assert.equal(second.body.customData.plan, 'pro');
      assert.equal(second.body.customData.team, 'core');

      const stored = await ctx().models.UserProfile.findByPk(user.id);
      assert.equal(stored?.data.plan, 'pro');
    });

    it('when a profile changes, then user.updated is logged with the actor and the changed fields (names, not values); an unchanged save logs nothing', async () => {
      const { user, token } = await createUserWithToken('viewer');
      const { user: admin, token: adminToken } = await createUserWithToken('admin');
      const logged = () => ctx().models.ActivityLog.findAll({ where: { action: 'user.updated' }, order: [['id', 'ASC']] });
      const before = (await logged()).length;
      const put = (as: string, body: object) => request(app).put(`/api/user-profiles/${user.id}`).set('Authorization', `Bearer ${as}`).set('User-Agent', 'profile-test').send(body);
      assert.equal((await put(token, { customData: { team: 'core', seats: 3 }, profile: { company: 'Engines Ltd' } })).status, 200);
      assert.equal((await put(adminToken, { customData: { seats: 4, team: 'core' } })).status, 200);
      assert.equal((await put(adminToken, { customData: { seats: 4 }, profile: { company: 'Engines Ltd' } })).status, 200);
      const rows = (await logged()).slice(before);
      assert.equal(rows.length, 2);
      assert.deepEqual(
        rows.map((row) => ({ actor: row.userId, email: row.email, agent: row.userAgent, details: { ...row.details, profileFields: [...(row.details?.profileFields as string[])].sort() } })),
        [
          { actor: user.id, email: user.email, agent: 'profile-test', details: { targetUserId: user.id, targetEmail: user.email, profileFields: ['company', 'seats', 'team'] } },
          { actor: admin.id, email: admin.email, agent: 'profile-test', details: { targetUserId: user.id, targetEmail: user.email, profileFields: ['seats'] } },
        ],
      );
      assert.doesNotMatch(JSON.stringify(rows.map((row) => row.details)), /Engines|core/);
    });

    it('when built-in fields are sent under `profile`, then the columns are written', async () => {
      const { user, token } = await createUserWithToken('viewer');
      const res = await request(app)
        .put(`/api/user-profiles/${user.id}`)
        .set('Authorization', `Bearer ${token}`)
        .send({ profile: { display_name: 'Ada', company: 'Engines Ltd', date_of_birth: 1_000_000 } });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.profile.display_name, 'Ada');
      assert.equal(res.body.profile.date_of_birth, 1_000_000);
      const read = await request(app).get(`/api/user-profiles/${user.id}`).set('Authorization', `Bearer ${token}`);
      assert.equal(read.body.profile.company, 'Engines Ltd');
    });

    it('when data breaks the rules, then 400 names every field with the contract messages and nothing is stored', async () => {
      const { user, token } = await createUserWithToken('viewer');
      const res = await request(app)
        .put(`/api/user-profiles/${user.id}`)
        .set('Authorization', `Bearer ${token}`)
        .send({ customData: { plan: 'gold', seats: 0, newsletter: 'yes', team: 'Core 1', address: { zip: 'abc' }, bogus: 1 } });
      assert.equal(res.status, 400);
      assert.equal(res.body.error, 'Validation failed');
      assert.deepEqual(res.body.errors, {
        plan: 'must be one of: free, pro',
        seats: 'must be at least 1',
        newsletter: 'must be true or false',
        team: 'format is invalid',
        'address.city': 'City is required',
        'address.zip': 'format is invalid',
        bogus: 'unknown field',
      });
      const stored = await ctx().models.UserProfile.findByPk(user.id);
      assert.deepEqual(stored?.data, {});
    });

    it('when a required field is missing, null or empty, then it is reported by its label', async () => {
      const { user, token } = await createUserWithToken('viewer');
      for (const team of [undefined, null, '']) {
        const res = await request(app).put(`/api/user-profiles/${user.id}`).set('Authorization', `Bearer ${token}`).send({ customData: { team } });
        assert.equal(res.status, 400);
        assert.equal(res.body.errors.team, 'Team is required');
      }
      const tooMany = await request(app).put(`/api/user-profiles/${user.id}`).set('Authorization', `Bearer ${token}`).send({ customData: { team: 'a', seats: 51 } });
      assert.equal(tooMany.body.errors.seats, 'must be at most 50');
      const notNumber = await request(app).put(`/api/user-profiles/${user.id}`).set('Authorization', `Bearer ${token}`).send({ customData: { team: 'a', seats: '5' } });
      assert.equal(notNumber.body.errors.seats, 'must be a number');
    });

    it('when the body is hostile, then 4xx without a 500 or a hang, and Object.prototype stays clean', async () => {
      const { user, token } = await createUserWithToken('viewer');
      const send = (body: string) =>
        request(app).put(`/api/user-profiles/${user.id}`).set('Authorization', `Bearer ${token}`).set('Content-Type', 'application/json').send(body);
      const polluted = await send('{"customData":{"team":"a","__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}}}}');
      assert.equal(polluted.status, 400);
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
      const started = Date.now();
      const redos = await send(JSON.stringify({ customData: { team: `${'a'.repeat(9000)}!` } }));
      assert.equal(redos.status, 400);
      assert.ok(Date.now() - started < 2000);
      assert.equal((await send(JSON.stringify({ customData: { team: 'x'.repeat(20_000) } }))).status, 400);
      assert.equal((await send(JSON.stringify({ customData: 'not an object' }))).status, 400);
      assert.equal((await send(JSON.stringify({ customData: [1, 2] }))).status, 400);
      assert.equal((await send(JSON.stringify({ customData: { team: 'a' }, role: 'admin' }))).status, 400);
    });

    it('when another user asks, then 403 Forbidden whether or not the id exists', async () => {
      const { user: owner } = await createUserWithToken('viewer');
      const { token: stranger } = await createUserWithToken('editor');
      for (const id of [owner.id, 'no-such-user']) {
        const read = await request(app).get(`/api/user-profiles/${id}`).set('Authorization', `Bearer ${stranger}`);
        assert.equal(read.status, 403);
        assert.deepEqual(read.body, { error: 'Forbidden' });
        const write = await request(app).put(`/api/user-profiles/${id}`).set('Authorization', `Bearer ${stranger}`).send({ customData: { team: 'x' } });
        assert.equal(write.status, 403);
      }
    });

    it('when an admin asks, then any profile is readable and writable, and an unknown id is 404', async () => {
      const { user: owner } = await createUserWithToken('author');
      const { token: admin } = await createUserWithToken('admin');
      const write = await request(app).put(`/api/user-profiles/${owner.id}`).set('Authorization', `Bearer ${admin}`).send({ customData: { team: 'ops' } });
      assert.equal(write.status, 200);
      const read = await request(app).get(`/api/user-profiles/${owner.id}`).set('Authorization', `Bearer ${admin}`);
      assert.equal(read.body.customData.team, 'ops');
      const missing = await request(app).get('/api/user-profiles/no-such-user').set('Authorization', `Bearer ${admin}`);
      assert.equal(missing.status, 404);
    });

    it('when nobody is signed in, then 401', async () => {
      const { user } = await createUserWithToken('viewer');
      assert.equal((await request(app).get(`/api/user-profiles/${user.id}`)).status, 401);
    });
  });
});
