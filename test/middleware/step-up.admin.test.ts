import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import request from 'supertest';
import type { Express } from 'express';
import { ctx } from '../support/context';
import { createTestUser, tokenFor } from '../support/users';
import { formBody } from '../support/admin-pages';
import { createCsrf } from '../../src/middleware/csrf';
import { STEP_UP_MAX_AGE_SECONDS } from '../../src/middleware/step-up';
import type { User } from '../../src/models';

/**
 * Issue 44, finding 4: an old admin session (or a key) cannot re-point a provider, switch off the 2FA policy,
 * rotate signing keys or reset someone's second factor: CONTRACT 9 makes these admin actions step-up routes.
 */
describe('step-up for admin actions (CONTRACT 9)', () => {
  let app: Express;
  let admin: User;
  let target: User;
  /** What the settings say now, sent back unchanged. */
  let allowRegistration: boolean;
  before(async () => {
    app = ctx().app;
    admin = await createTestUser('admin');
    target = await createTestUser('viewer');
    const settings = await request(app).get('/api/settings/security').set('Authorization', `Bearer ${await tokenFor(admin)}`);
    allowRegistration = settings.body.allowRegistration.value;
  });

  const now = () => Math.floor(Date.now() / 1000);
  const oldToken = () => tokenFor(admin, { sid: crypto.randomUUID(), authTime: now() - STEP_UP_MAX_AGE_SECONDS - 60 });
  const freshToken = () => tokenFor(admin, { sid: crypto.randomUUID(), authTime: now() });

  /** Each admin action of the API, with a body that changes nothing when it is let through. */
  const actions: Array<{ name: string; send: (token: { header: string; value: string }) => request.Test }> = [
    { name: 'DELETE /api/users/:id/2fa', send: (h) => request(app).delete(`/api/users/${target.id}/2fa`).set(h.header, h.value) },
    { name: 'PUT /api/plugins/:name', send: (h) => request(app).put('/api/plugins/oauth-providers').set(h.header, h.value).send({ settings: {} }) },
    { name: 'PUT /api/settings/security', send: (h) => request(app).put('/api/settings/security').set(h.header, h.value).send({ allowRegistration }) },
    { name: 'POST /api/settings/keys/rotate', send: (h) => request(app).post('/api/settings/keys/rotate').set(h.header, h.value) },
  ];

  it('when an admin signed in longer ago than STEP_UP_MAX_AGE, then each answers 403 { stepUp: true }; a recent sign-in passes', async () => {
    const old = await oldToken();
    const fresh = await freshToken();
    for (const action of actions) {
      const refused = await action.send({ header: 'Authorization', value: `Bearer ${old}` });
      assert.equal(refused.status, 403, action.name);
      assert.deepEqual(refused.body, { error: 'Recent sign-in required', stepUp: true }, action.name);
      const passed = await action.send({ header: 'Authorization', value: `Bearer ${fresh}` });
      // Past the step-up (rotation itself may refuse the embedded HS256 setup with 409).
      assert.ok(passed.status < 300 || (passed.status === 409 && action.name.includes('rotate')), `${action.name} with a recent sign-in: ${passed.status} ${JSON.stringify(passed.body)}`);
    }
  });

  it('when an admin’s API key (every permission) tries them, then each is 403 "Not allowed with an API key"', async () => {
    const made = await request(app).post('/auth/api-keys').set('Authorization', `Bearer ${await freshToken()}`).send({ name: 'admin-all' });
    assert.equal(made.status, 201);
    for (const action of actions) {
      const res = await action.send({ header: 'X-API-Key', value: made.body.key });
      assert.equal(res.status, 403, action.name);
      assert.deepEqual(res.body, { error: 'Not allowed with an API key' }, action.name);
    }
  });

  it('when the page forms are posted from an old sign-in, then the browser goes to the step-up prompt and back to the page', async () => {
    const csrf = createCsrf({ secret: ctx().config.jwtSecret, tokens: { signedSubject: async () => null } }).issue(admin.id);
    const cookie = `auth_token=${await oldToken()}; csrf_token=${encodeURIComponent(csrf)}`;
    const pages: Array<[string, Record<string, string>, string]> = [
      [`/admin/users/${target.id}/two-factor/reset`, {}, `/admin/users/${target.id}/edit`],
      ['/admin/plugins/oauth-providers', {}, '/admin/plugins/oauth-providers'],
      ['/admin/settings/security', {}, '/admin/settings/security'],
      ['/admin/settings/keys/rotate', {}, '/admin/settings/security'],
    ];
    for (const [path, fields, returnTo] of pages) {
      const res = await request(app)
        .post(path)
        .set('Cookie', cookie)
        .set('Accept', 'text/html')
        .type('form')
        .send(formBody({ _csrf: csrf, ...fields }));
      assert.equal(res.status, 303, `${path}: ${res.status}`);
      assert.equal(res.headers.location, `/auth/step-up?redirect=${encodeURIComponent(returnTo)}`, path);
    }
  });
});
