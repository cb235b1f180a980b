import assert from 'node:assert/strict';
import request from 'supertest';
import { ctx, resetDatabase, uniqueEmail } from '../support/context';
import { PASSWORD, appWith, makeUser } from '../support/auth';

const EXISTS = { error: 'An admin user already exists' };

describe('POST /auth/seed-admin', () => {
  beforeEach(resetDatabase);

  it('when no admin exists, then 201 with the admin (no hash); afterwards 409', async () => {
    const email = uniqueEmail('seed');
    const res = await request(ctx().app).post('/auth/seed-admin').send({ email, password: PASSWORD });
    assert.equal(res.status, 201);
    assert.equal(typeof res.body.message, 'string');
    assert.deepEqual(Object.keys(res.body.user).sort(), ['email', 'firstName', 'id', 'lastName', 'role', 'username']);
    assert.equal(res.body.user.email, email);
    assert.equal(res.body.user.role, 'admin');
    assert.ok(!JSON.stringify(res.body).includes('pbkdf2'));
    assert.equal(res.headers['cache-control'], 'no-store');

    const again = await request(ctx().app).post('/auth/seed-admin').send({ email: uniqueEmail(), password: PASSWORD });
    assert.equal(again.status, 409);
    assert.deepEqual(again.body, EXISTS);

    const login = await request(ctx().app).post('/auth/login').send({ email, password: PASSWORD });
    assert.equal(login.status, 200);
    assert.equal(login.body.user.role, 'admin');
    const row = await ctx().models.ActivityLog.findOne({ where: { action: 'user.created', userId: res.body.user.id } });
    assert.ok(row);
    assert.ok(!JSON.stringify(row.toJSON()).includes(PASSWORD));
  });

  it('when the body is empty, then ADMIN_EMAIL and ADMIN_PASSWORD are used', async () => {
    const email = uniqueEmail('envadmin');
    const app = appWith({ env: { ADMIN_EMAIL: email, ADMIN_PASSWORD: 'env-admin-password' } });
    const res = await request(app).post('/auth/seed-admin').send({});
    assert.equal(res.status, 201);
    assert.equal(res.body.user.email, email);
    const login = await request(app).post('/auth/login').send({ email, password: 'env-admin-password' });
    assert.equal(login.status, 200);
  });

  it('when neither body nor environment give credentials, then 400', async () => {
    const app = appWith({ env: { ADMIN_EMAIL: undefined, ADMIN_PASSWORD: undefined } });
    const res = await request(app).post('/auth/seed-admin').send({});
    assert.equal(res.status, 400);
    assert.equal(res.body.error, 'Validation failed');
    assert.ok(res.body.errors.email);
    assert.ok(res.body.errors.password);
  });

  it('when an admin exists, then 409 and its password is never reset', async () => {
    const admin = await makeUser({ role: 'admin' });
    const hash = admin.passwordHash;
    const res = await request(ctx().app).post('/auth/seed-admin').send({ email: admin.email, password: 'another-password' });
    assert.equal(res.status, 409);
    assert.deepEqual(res.body, EXISTS);
    await admin.reload();
    assert.equal(admin.passwordHash, hash);
  });

  it('when the email belongs to an existing non-admin, then 409 and that account is untouched', async () => {
    const viewer = await makeUser({ role: 'viewer' });
    const res = await request(ctx().app).post('/auth/seed-admin').send({ email: viewer.email, password: 'another-password' });
    assert.equal(res.status, 409);
    await viewer.reload();
    assert.equal(viewer.role, 'viewer');
    const login = await request(ctx().app).post('/auth/login').send({ email: viewer.email, password: PASSWORD });
    assert.equal(login.status, 200);
  });

  it('when two seed requests race, then exactly one admin is created', async () => {
    const app = appWith({ env: { TRUST_PROXY: 'true' } });
    const results = await Promise.all(
      [1, 2, 3, 4].map((i) => request(app).post('/auth/seed-admin').set('X-Forwarded-For', `10.9.0.${i}`).send({ email: uniqueEmail(`seed${i}`), password: PASSWORD })),
    );
    assert.deepEqual(results.map((res) => res.status).sort(), [201, 409, 409, 409]);
    assert.equal(await ctx().models.User.count({ where: { role: 'admin' } }), 1);
  });

  it('when the body has unknown fields or a short password, then 400', async () => {
    const unknown = await request(ctx().app).post('/auth/seed-admin').send({ email: uniqueEmail(), password: PASSWORD, role: 'viewer' });
    assert.equal(unknown.status, 400);
    const short = await request(ctx().app).post('/auth/seed-admin').send({ email: uniqueEmail(), password: 'short' });
    assert.equal(short.status, 400);
  });
});
