import assert from 'node:assert/strict';
import request from 'supertest';
import type { Express } from 'express';
import { buildApp, ctx } from '../support/context';
import { makeUser, payloadOf, tokenFor, PASSWORD } from '../support/auth';
import { createUserWithToken } from '../support/users';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import { awayFromStepEnd, codeFor, enrolTotp } from '../support/totp';

/** CONTRACT 9: the requireTwoFactorRoles policy, its enrolment gate, and an admin's reset of a user's second factor. */
describe('two-factor policy and admin reset', () => {
  let sink: SmtpSink;
  let app: Express;
  let admin: { Authorization: string };

  before(async () => {
    sink = await startSmtpSink();
    app = buildApp({ env: { SMTP_URL: sink.url, EMAIL_FROM: 'auth@example.test' } });
  });
  after(() => sink.stop());
  beforeEach(async () => {
    const { token } = await createUserWithToken('admin');
    // Each test starts from the default policy (nobody held): a held admin would be locked out of the settings API.
    await ctx().models.Setting.destroy({ where: { key: 'security.requireTwoFactorRoles' } });
    admin = { Authorization: `Bearer ${token}` };
  });
  afterEach(() => ctx().models.Setting.destroy({ where: { key: 'security.requireTwoFactorRoles' } }));

  const setPolicy = (roles: string[]) => request(app).put('/api/settings/security').set(admin).send({ requireTwoFactorRoles: roles });

  it('when the policy is read and set through the API, then it is a list of roles (default []), unknown roles refused', async () => {
    const before = await request(app).get('/api/settings/security').set(admin);
    assert.deepEqual(before.body.requireTwoFactorRoles, { value: [], source: 'default' });
    const refused = await setPolicy(['editor', 'wizard']);
    assert.equal(refused.status, 400);
    assert.ok(refused.body.errors['requireTwoFactorRoles.1'] ?? refused.body.errors.requireTwoFactorRoles, JSON.stringify(refused.body));
    const saved = await setPolicy(['editor']);
    assert.equal(saved.status, 200);
    assert.deepEqual(saved.body.requireTwoFactorRoles, { value: ['editor'], source: 'admin' });
  });

  it('when the policy covers a role, then its users without a second factor sign in but get 403 everywhere except /auth/me, /auth/2fa/*, /auth/logout; admin pages lead to enrolment; after enrolling everything opens', async () => {
    assert.equal((await setPolicy(['editor'])).status, 200);
    const editor = await makeUser({ role: 'editor' });
    const signIn = await request(app).post('/auth/login').send({ email: editor.email, password: PASSWORD });
    assert.equal(signIn.status, 200, 'a held user still signs in');
    const auth = { Authorization: `Bearer ${signIn.body.token}` };

    const held = await request(app).get('/api/content').set(auth);
    assert.equal(held.status, 403);
    assert.deepEqual(held.body, { error: 'Two-factor enrolment required' });
    assert.equal((await request(app).get('/auth/sessions').set(auth)).status, 403);
    const me = await request(app).get('/auth/me').set(auth);
    assert.equal(me.status, 200);
    assert.equal(me.body.user.twoFactorEnabled, false);
    const page = await request(app).get('/admin/content').set(auth).set('Accept', 'text/html');
    assert.equal(page.status, 302);
    assert.equal(page.headers.location, '/admin/profile/two-factor');
    assert.equal((await request(app).get('/admin/profile/two-factor').set(auth).set('Accept', 'text/html')).status, 200);

    // Another role is not held.
    const viewer = await makeUser({ role: 'viewer' });
    assert.equal((await request(app).get('/auth/sessions').set('Authorization', `Bearer ${await tokenFor(viewer)}`)).status, 200);

    await enrolTotp(app, signIn.body.token);
    assert.equal((await request(app).get('/api/content').set(auth)).status, 200);
    assert.equal((await request(app).get('/admin/content').set(auth).set('Accept', 'text/html')).status, 200);
    assert.equal((await request(app).post('/auth/logout').set(auth)).status, 200);
  });

  it('when the security settings page is saved with role boxes ticked, then the policy holds exactly those roles; unticking all clears it', async () => {
    const page = await request(app).get('/admin/settings/security').set(admin).set('Accept', 'text/html');
    assert.equal(page.status, 200);
    for (const role of ['admin', 'editor', 'author', 'viewer']) assert.match(page.text, new RegExp(`name="requireTwoFactorRoles" value="${role}"`));
    const form = { jwtExpiresIn: '30d', jwtRefreshGraceSeconds: '604800', allowRegistration: 'on', sessionMaxAgeSeconds: '7776000', requireTwoFactorRolesShown: '1' };
    const saved = await request(app).post('/admin/settings/security').set(admin).set('Accept', 'text/html').type('form').send(`${new URLSearchParams(form)}&requireTwoFactorRoles=author&requireTwoFactorRoles=editor`);
    assert.equal(saved.status, 303);
    assert.deepEqual((await request(app).get('/api/settings/security').set(admin)).body.requireTwoFactorRoles.value, ['editor', 'author']);
    const cleared = await request(app).post('/admin/settings/security').set(admin).set('Accept', 'text/html').type('form').send(new URLSearchParams(form).toString());
    assert.equal(cleared.status, 303);
    assert.deepEqual((await request(app).get('/api/settings/security').set(admin)).body.requireTwoFactorRoles.value, []);
  });

  it('when an admin resets a user\'s second factor, then TOTP and recovery codes are gone, every session of the user ends, the user is mailed and the activity says user.2fa_reset', async () => {
    const user = await makeUser();
    const { secret } = await enrolTotp(app, await tokenFor(user));
    await awayFromStepEnd();
    const first = await request(app).post('/auth/login').send({ email: user.email, password: PASSWORD });
    const signedIn = await request(app).post('/auth/2fa/verify').send({ challenge: first.body.challenge, code: codeFor(secret, 1) });
    assert.equal(signedIn.status, 200);

    assert.equal((await request(app).delete(`/api/users/${user.id}/2fa`).set('Authorization', `Bearer ${signedIn.body.token}`)).status, 403, 'not for a viewer');
    const reset = await request(app).delete(`/api/users/${user.id}/2fa`).set(admin);
    assert.equal(reset.status, 200);
    assert.deepEqual(reset.body, { success: true });
    assert.equal((await request(app).delete('/api/users/no-such-user/2fa').set(admin)).status, 404);

    assert.equal((await request(app).get('/auth/me').set('Authorization', `Bearer ${signedIn.body.token}`)).status, 401, 'the session ended');
    assert.equal(await ctx().models.TwoFactor.count({ where: { userId: user.id } }), 0);
    assert.equal(await ctx().models.RecoveryCode.count({ where: { userId: user.id } }), 0);
    const row = await ctx().models.ActivityLog.findOne({ where: { action: 'user.2fa_reset' }, order: [['id', 'DESC']] });
    assert.equal((row?.details as Record<string, unknown>).targetUserId, user.id);
    const mail = await sink.waitFor((m) => m.envelope.to.includes(user.email) && /reset by an administrator/.test(m.subject));
    assert.ok(!mail.text.includes(secret));
    const again = await request(app).post('/auth/login').send({ email: user.email, password: PASSWORD });
    assert.ok(again.body.token, 'a password alone signs in again');
    assert.equal(payloadOf(again.body.token).sub, user.id);
  });

  it('when the reset button on the users edit page is used, then the same reset happens and the page says so', async () => {
    const user = await makeUser();
    await enrolTotp(app, await tokenFor(user));
    const edit = await request(app).get(`/admin/users/${user.id}/edit`).set(admin).set('Accept', 'text/html');
    assert.match(edit.text, /Reset two-factor/);
    const res = await request(app).post(`/admin/users/${user.id}/two-factor/reset`).set(admin).set('Accept', 'text/html').type('form').send({});
    assert.equal(res.status, 303);
    assert.equal(res.headers.location, `/admin/users/${user.id}/edit?notice=two_factor_reset`);
    assert.equal(await ctx().models.TwoFactor.count({ where: { userId: user.id } }), 0);
  });
});
