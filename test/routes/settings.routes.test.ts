import assert from 'node:assert/strict';
import jwt from 'jsonwebtoken';
import request from 'supertest';
import { Op } from 'sequelize';
import { buildApp, ctx } from '../support/context';
import { createUserWithToken, tokenFor } from '../support/users';
import { payloadOf, signRaw } from '../support/auth';

async function clearSecuritySettings(): Promise<void> {
  await ctx().models.Setting.destroy({ where: { key: { [Op.like]: 'security.%' } } });
}

async function storedSecuritySettings(): Promise<Record<string, unknown>> {
  const rows = await ctx().models.Setting.findAll({ where: { key: { [Op.like]: 'security.%' } } });
  return Object.fromEntries(rows.map((row) => [row.key, row.value]));
}

describe('security settings API', () => {
  let admin: { id: string; token: string };

  before(async () => {
    const { user, token } = await createUserWithToken('admin');
    admin = { id: user.id, token };
  });
  beforeEach(clearSecuritySettings);
  // Registration and token lifetimes of every later suite depend on these rows.
  after(clearSecuritySettings);

  const auth = () => ({ Authorization: `Bearer ${admin.token}` });

  /** The token again, signed with the app's secret, as if it had expired `secondsAgo` ago (its other claims kept). */
  function expired(token: string, secondsAgo: number): string {
    const now = Math.floor(Date.now() / 1000);
    return signRaw({ alg: 'HS256', typ: 'JWT' }, { ...payloadOf(token), iat: now - 3600 - secondsAgo, exp: now - secondsAgo }, ctx().config.jwtSecret);
  }

  it('when the grace is raised, then tokens issued before keep their own window (a logged-out one cannot come back); a lowered grace applies at once', async () => {
    const setGrace = async (seconds: number) =>
      assert.equal((await request(ctx().app).put('/api/settings/security').set(auth()).send({ jwtRefreshGraceSeconds: seconds })).status, 200);
    const refresh = (token: string) => request(ctx().app).post('/auth/refresh').set('Authorization', `Bearer ${token}`);
    const { user } = await createUserWithToken('viewer');

    await setGrace(60);
    const issuedUnder60 = await tokenFor(user);
    assert.equal(payloadOf(issuedUnder60).grace, 60);
    // Logged out while still refreshable; its revocation is kept until exp + 60 s.
    const loggedOut = expired(issuedUnder60, 30);
    assert.equal((await request(ctx().app).post('/auth/logout').set('Authorization', `Bearer ${loggedOut}`)).status, 200);
    const row = await ctx().models.RevokedToken.findByPk(payloadOf(loggedOut).jti as string);
    assert.equal(row?.expiresAt, (payloadOf(loggedOut).exp as number) + 60);

    const alsoUnder60 = await tokenFor(user);

    await setGrace(3600);
    assert.equal((await refresh(loggedOut)).status, 401);
    // Past its own 60 s a token stays refused, whether or not a revocation row is still there: once the row
    // of a logged-out token is pruned (at exp + 60 s), raising the grace cannot bring it back.
    assert.equal((await refresh(expired(alsoUnder60, 120))).status, 401);
    assert.equal((await refresh(expired(alsoUnder60, 30))).status, 200);
    const issuedUnder3600 = await tokenFor(user);
    assert.equal((await refresh(expired(issuedUnder3600, 120))).status, 200);

    await setGrace(60);
    assert.equal((await refresh(expired(issuedUnder3600, 120))).status, 401, 'a lowered grace applies to tokens issued before');
  });

  it('when nothing is set, then the defaults with source default', async () => {
    const res = await request(ctx().app).get('/api/settings/security').set(auth());
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, {
      jwtExpiresIn: { value: '30d', seconds: 2_592_000, source: 'default' },
      jwtRefreshGraceSeconds: { value: 604_800, seconds: 604_800, source: 'default' },
      allowRegistration: { value: true, source: 'default' },
      sessionMaxAgeSeconds: { value: 7_776_000, seconds: 7_776_000, source: 'default' },
      requireVerifiedEmail: { value: false, source: 'default' },
      requireTwoFactorRoles: { value: [], source: 'default' },
    });
  });

  it('when an admin stores values, then they are answered with source admin, new tokens use them, and the change is logged', async () => {
    const res = await request(ctx().app)
      .put('/api/settings/security')
      .set(auth())
      .send({ jwtExpiresIn: '12h', jwtRefreshGraceSeconds: 0, allowRegistration: false, sessionMaxAgeSeconds: 86_400 });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, {
      jwtExpiresIn: { value: '12h', seconds: 43_200, source: 'admin' },
      jwtRefreshGraceSeconds: { value: 0, seconds: 0, source: 'admin' },
      allowRegistration: { value: false, source: 'admin' },
      sessionMaxAgeSeconds: { value: 86_400, seconds: 86_400, source: 'admin' },
      requireVerifiedEmail: { value: false, source: 'default' },
      requireTwoFactorRoles: { value: [], source: 'default' },
    });
    const again = await request(ctx().app).get('/api/settings/security').set(auth());
    assert.deepEqual(again.body, res.body);

    const claims = jwt.decode(await tokenFor({ id: admin.id })) as { iat: number; exp: number };
    assert.equal(claims.exp - claims.iat, 43_200);

    const log = await ctx().models.ActivityLog.findOne({ where: { action: 'settings.updated', userId: admin.id }, order: [['id', 'DESC']] });
    assert.deepEqual((log?.details as { changes: Record<string, unknown> }).changes.jwtExpiresIn, { from: '30d', to: '12h', source: 'admin' });
  });

  it('when only one value is sent, then only that one changes', async () => {
    await request(ctx().app).put('/api/settings/security').set(auth()).send({ jwtExpiresIn: '3600' }).expect(200);
    const res = await request(ctx().app).put('/api/settings/security').set(auth()).send({ allowRegistration: false });
    assert.equal(res.body.jwtExpiresIn.value, '3600');
    assert.equal(res.body.jwtExpiresIn.seconds, 3600);
    assert.equal(res.body.jwtRefreshGraceSeconds.source, 'default');
  });

  it('when the environment sets a value, then it wins: GET shows source env while the admin value is stored', async () => {
    const envApp = buildApp({ env: { JWT_EXPIRES_IN: '1h', JWT_REFRESH_GRACE_SECONDS: '120' } });
    const res = await request(envApp).put('/api/settings/security').set(auth()).send({ jwtExpiresIn: '7d', jwtRefreshGraceSeconds: 30 });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.jwtExpiresIn, { value: '1h', seconds: 3600, source: 'env' });
    assert.deepEqual(res.body.jwtRefreshGraceSeconds, { value: 120, seconds: 120, source: 'env' });
    assert.deepEqual(await storedSecuritySettings(), { 'security.jwtExpiresIn': '7d', 'security.jwtRefreshGraceSeconds': 30 });

    const viaEnvApp = await request(envApp).get('/api/settings/security').set(auth());
    assert.equal(viaEnvApp.body.jwtExpiresIn.source, 'env');
    // Without the variable the stored value applies.
    const viaPlainApp = await request(ctx().app).get('/api/settings/security').set(auth());
    assert.deepEqual(viaPlainApp.body.jwtExpiresIn, { value: '7d', seconds: 604_800, source: 'admin' });
  });

  it('when the body is bad, then 400 naming the field and nothing stored', async () => {
    const cases: Array<[unknown, string]> = [
      [{}, '_'],
      [{ jwtExpiresIn: 'forever' }, 'jwtExpiresIn'],
      [{ jwtExpiresIn: '10x' }, 'jwtExpiresIn'],
      [{ jwtExpiresIn: '' }, 'jwtExpiresIn'],
      [{ jwtExpiresIn: '0' }, 'jwtExpiresIn'],
      [{ jwtExpiresIn: '366d' }, 'jwtExpiresIn'],
      [{ jwtExpiresIn: 3600 }, 'jwtExpiresIn'],
      [{ jwtExpiresIn: "1h' OR 1=1 --" }, 'jwtExpiresIn'],
      [{ jwtRefreshGraceSeconds: -1 }, 'jwtRefreshGraceSeconds'],
      [{ jwtRefreshGraceSeconds: 1.5 }, 'jwtRefreshGraceSeconds'],
      [{ jwtRefreshGraceSeconds: '60' }, 'jwtRefreshGraceSeconds'],
      [{ jwtRefreshGraceSeconds: 1e12 }, 'jwtRefreshGraceSeconds'],
      [{ allowRegistration: 'false' }, 'allowRegistration'],
      [{ allowRegistration: 0 }, 'allowRegistration'],
      [{ allowRegistration: true, jwtSecret: 'x' }, 'jwtSecret'],
    ];
    const logsBefore = await ctx().models.ActivityLog.count({ where: { action: 'settings.updated' } });
    for (const [body, field] of cases) {
      const res = await request(ctx().app).put('/api/settings/security').set(auth()).send(body as object);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.error, 'Validation failed');
      assert.ok(res.body.errors[field], `${field} in ${JSON.stringify(res.body)}`);
    }
    assert.deepEqual(await storedSecuritySettings(), {});
    assert.equal(await ctx().models.ActivityLog.count({ where: { action: 'settings.updated' } }), logsBefore);
  });

  for (const role of ['editor', 'author', 'viewer'] as const) {
    it(`when a ${role} reads or writes them, then 403 and nothing stored`, async () => {
      const { token } = await createUserWithToken(role);
      const read = await request(ctx().app).get('/api/settings/security').set('Authorization', `Bearer ${token}`);
      assert.equal(read.status, 403);
      const write = await request(ctx().app).put('/api/settings/security').set('Authorization', `Bearer ${token}`).send({ allowRegistration: false });
      assert.equal(write.status, 403);
      assert.deepEqual(write.body, { error: 'Insufficient permissions' });
      assert.deepEqual(await storedSecuritySettings(), {});
    });
  }
});
