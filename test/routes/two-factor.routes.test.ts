import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import request from 'supertest';
import type { Express } from 'express';
import { buildApp, ctx } from '../support/context';
import { makeUser, nextClientIp, payloadOf, proxiedApp, setCookies, tokenFor, PASSWORD } from '../support/auth';
import { awayFromStepEnd, codeFor, enrolTotp } from '../support/totp';
import type { User } from '../../src/models';

/** CONTRACT 9: TOTP enrolment and the second step after a password, through the JSON API (SQLite, or MariaDB + Redis). */
describe('two-factor: enrolment and the second step (/auth/2fa)', () => {
  let app: Express;
  beforeEach(() => {
    app = proxiedApp();
  });

  /** A password sign-in from a fresh client address (the per-IP sign-in limit stays out of the way). */
  const login = (user: User, on: Express = app) => request(on).post('/auth/login').set('X-Forwarded-For', nextClientIp()).send({ email: user.email, password: PASSWORD });
  const verify = (body: Record<string, unknown>, on: Express = app) => request(on).post('/auth/2fa/verify').set('X-Forwarded-For', nextClientIp()).send(body);

  async function enrolled(): Promise<{ user: User; secret: string; recoveryCodes: string[] }> {
    const user = await makeUser();
    return { user, ...(await enrolTotp(app, await tokenFor(user))) };
  }

  it('when a user enrols, then setup gives a base32 secret and otpauth URL, a wrong code is refused, the right one answers ten recovery codes and /auth/me says twoFactorEnabled', async () => {
    const user = await makeUser();
    const token = await tokenFor(user);
    const auth = { Authorization: `Bearer ${token}` };
    assert.equal((await request(app).get('/auth/me').set(auth)).body.user.twoFactorEnabled, false);

    const setup = await request(app).post('/auth/2fa/totp/setup').set(auth);
    assert.equal(setup.status, 200);
    assert.match(setup.body.secret, /^[A-Z2-7]{32}$/);
    assert.equal(setup.body.otpauthUrl, `otpauth://totp/Auth%20service:${encodeURIComponent(user.email)}?secret=${setup.body.secret}&issuer=Auth%20service`);
    await awayFromStepEnd();
    const wrong = await request(app).post('/auth/2fa/totp/confirm').set(auth).send({ code: codeFor(setup.body.secret, 3) });
    assert.equal(wrong.status, 400);
    assert.equal((await request(app).get('/auth/me').set(auth)).body.user.twoFactorEnabled, false);

    const confirm = await request(app).post('/auth/2fa/totp/confirm').set(auth).send({ code: codeFor(setup.body.secret) });
    assert.equal(confirm.status, 200);
    assert.equal(confirm.body.recoveryCodes.length, 10);
    assert.equal(new Set(confirm.body.recoveryCodes).size, 10);
    assert.equal((await request(app).get('/auth/me').set(auth)).body.user.twoFactorEnabled, true);
    assert.equal((await request(app).post('/auth/2fa/totp/setup').set(auth)).status, 409);

    // A database dump alone reveals neither the secret nor a recovery code.
    const [rows] = await ctx().sequelize.query('SELECT * FROM two_factor WHERE user_id = ?', { replacements: [user.id] });
    const [codes] = await ctx().sequelize.query('SELECT code_hash FROM recovery_codes WHERE user_id = ?', { replacements: [user.id] });
    const dump = JSON.stringify([rows, codes]);
    assert.ok(!dump.includes(setup.body.secret), 'the secret is sealed');
    for (const code of confirm.body.recoveryCodes) assert.ok(!dump.includes(code) && !dump.includes(code.replace('-', '')), 'codes are hashed');
    assert.equal((codes as unknown[]).length, 10);
  });

  it('when a user with TOTP signs in with a password, then there is no token or auth cookie but a challenge; the code ends in the normal answer with method password+totp', async () => {
    const { user, secret } = await enrolled();
    await awayFromStepEnd();
    const first = await login(user);
    assert.equal(first.status, 200);
    assert.deepEqual(Object.keys(first.body).sort(), ['challenge', 'methods', 'twoFactorRequired']);
    assert.equal(first.body.twoFactorRequired, true);
    assert.deepEqual(first.body.methods, ['totp', 'recovery']);
    assert.deepEqual(Object.keys(setCookies(first)), []);

    const second = await verify({ challenge: first.body.challenge, code: codeFor(secret, 1) });
    assert.equal(second.status, 200, JSON.stringify(second.body));
    assert.equal(second.body.user.id, user.id);
    assert.ok(setCookies(second).auth_token && setCookies(second).csrf_token);
    const claims = payloadOf(second.body.token);
    const session = await ctx().models.Session.findByPk(claims.sid as string);
    assert.equal(session?.method, 'password+totp');
    const row = await ctx().models.ActivityLog.findOne({ where: { action: 'auth.login', userId: user.id }, order: [['id', 'DESC']] });
    assert.equal((row?.details as Record<string, unknown>).method, 'password+totp');
    assert.equal((await request(app).get('/auth/me').set('Authorization', `Bearer ${second.body.token}`)).status, 200);
  });

  it('when a code was used, then it is refused again within its window (replay), while the next step is accepted; drift of one step either way, never two', async () => {
    const { user, secret } = await enrolled();
    await awayFromStepEnd();
    // Enrolment used the current step: that code, and the previous step's, are now spent.
    const replay = await login(user);
    assert.equal((await verify({ challenge: replay.body.challenge, code: codeFor(secret) })).status, 401);
    assert.equal((await verify({ challenge: replay.body.challenge, code: codeFor(secret, -1) })).status, 401);
    assert.equal((await verify({ challenge: replay.body.challenge, code: codeFor(secret, 2) })).status, 401);
    assert.equal((await verify({ challenge: replay.body.challenge, code: codeFor(secret, 1) })).status, 200);

    // A fresh user: one step behind (a slow phone clock) is accepted; two behind is not.
    const other = await enrolled();
    await ctx().models.TwoFactor.update({ lastTimeStep: null }, { where: { userId: other.user.id } });
    const late = await login(other.user);
    assert.equal((await verify({ challenge: late.body.challenge, code: codeFor(other.secret, -2) })).status, 401);
    assert.equal((await verify({ challenge: late.body.challenge, code: codeFor(other.secret, -1) })).status, 200);
  });

  it('when the code is wrong or the challenge is, then the answer is the same 401 "Invalid code"; the fifth wrong code ends the challenge', async () => {
    const { user, secret } = await enrolled();
    await awayFromStepEnd();
    const { body } = await login(user);
    const wrongCode = await verify({ challenge: body.challenge, code: codeFor(secret, 5) });
    const wrongChallenge = await verify({ challenge: crypto.randomBytes(32).toString('base64url'), code: codeFor(secret, 1) });
    assert.equal(wrongCode.status, 401);
    assert.deepEqual(wrongCode.body, { error: 'Invalid code' });
    assert.equal(wrongChallenge.status, wrongCode.status);
    assert.deepEqual(wrongChallenge.body, wrongCode.body);
    for (let i = 0; i < 4; i++) assert.equal((await verify({ challenge: body.challenge, code: codeFor(secret, 6 + i) })).status, 401);

    const afterFive = await verify({ challenge: body.challenge, code: codeFor(secret, 1) });
    assert.equal(afterFive.status, 401);
    assert.deepEqual(afterFive.body, { error: 'Invalid code' });
  });

  it('when wrong codes pile up across challenges, then the second step is blocked for the account (a right password in between does not clear the count)', async () => {
    const { user, secret } = await enrolled();
    await awayFromStepEnd();
    for (let round = 0; round < 2; round++) {
      const { body } = await login(user);
      assert.equal(body.twoFactorRequired, true, 'the password is right, so each round gets its challenge');
      for (let i = 0; i < 5; i++) await verify({ challenge: body.challenge, code: codeFor(secret, 7 + i) });
    }
    // Ten wrong codes: even the right code is refused for the rest of the window.
    const { body } = await login(user);
    const blocked = await verify({ challenge: body.challenge, code: codeFor(secret, 1) });
    assert.equal(blocked.status, 429);
    assert.ok(Number(blocked.headers['retry-after']) > 0);
  });

  it('when wrong codes and wrong passwords add up to the limit, then the account throttle blocks password sign-in too (codes count in it)', async () => {
    const { user, secret } = await enrolled();
    await awayFromStepEnd();
    const { body } = await login(user);
    for (let i = 0; i < 5; i++) await verify({ challenge: body.challenge, code: codeFor(secret, 7 + i) });
    for (let i = 0; i < 5; i++) {
      const wrong = await request(app).post('/auth/login').set('X-Forwarded-For', nextClientIp()).send({ email: user.email, password: `wrong ${i}` });
      assert.equal(wrong.status, 401);
    }
    const blocked = await login(user);
    assert.equal(blocked.status, 429);
  });

  it('when a recovery code is used, then it signs in once (method password+recovery) and never again; new codes void the old set', async () => {
    const { user, recoveryCodes } = await enrolled();
    const first = await login(user);
    const used = await verify({ challenge: first.body.challenge, recoveryCode: recoveryCodes[0].toUpperCase() });
    assert.equal(used.status, 200, JSON.stringify(used.body));
    assert.equal((await ctx().models.Session.findByPk(payloadOf(used.body.token).sid as string))?.method, 'password+recovery');

    const again = await login(user);
    assert.equal((await verify({ challenge: again.body.challenge, recoveryCode: recoveryCodes[0] })).status, 401);

    const fresh = await request(app).post('/auth/2fa/recovery-codes').set('Authorization', `Bearer ${await tokenFor(user)}`);
    assert.equal(fresh.status, 200);
    assert.equal(fresh.body.recoveryCodes.length, 10);
    const old = await login(user);
    assert.equal((await verify({ challenge: old.body.challenge, recoveryCode: recoveryCodes[1] })).status, 401);
    const renewed = await login(user);
    assert.equal((await verify({ challenge: renewed.body.challenge, recoveryCode: fresh.body.recoveryCodes[1] })).status, 200);
  });

  it('when one challenge is answered twice at once with two right answers, then exactly one sign-in completes (single use)', async () => {
    const { user, recoveryCodes } = await enrolled();
    const { body } = await login(user);
    const answers = await Promise.all([verify({ challenge: body.challenge, recoveryCode: recoveryCodes[2] }), verify({ challenge: body.challenge, recoveryCode: recoveryCodes[3] })]);
    assert.deepEqual(answers.map((res) => res.status).sort(), [200, 401]);
  });

  it('when the same right code is sent twice at once to two challenges, then exactly one is accepted (the time step is spent once)', async () => {
    const { user, secret } = await enrolled();
    await awayFromStepEnd();
    const [a, b] = await Promise.all([login(user), login(user)]);
    const code = codeFor(secret, 1);
    const answers = await Promise.all([verify({ challenge: a.body.challenge, code }), verify({ challenge: b.body.challenge, code })]);
    assert.deepEqual(answers.map((res) => res.status).sort(), [200, 401]);
  });

  it('when a challenge begun on one instance is answered on another, then the sign-in completes there (challenges live in the shared store)', async () => {
    const { user, secret } = await enrolled();
    const one = buildApp({ env: { TRUST_PROXY: 'true' } });
    const two = buildApp({ env: { TRUST_PROXY: 'true' } });
    await awayFromStepEnd();
    const first = await login(user, one);
    const second = await verify({ challenge: first.body.challenge, code: codeFor(secret, 1) }, two);
    assert.equal(second.status, 200);
    assert.equal((await request(one).get('/auth/me').set('Authorization', `Bearer ${second.body.token}`)).body.user.twoFactorEnabled, true);
  });

  it('when two-factor is turned off, then password sign-in answers a token again and the owner is no longer asked', async () => {
    const { user } = await enrolled();
    const off = await request(app).post('/auth/2fa/disable').set('Authorization', `Bearer ${await tokenFor(user)}`);
    assert.equal(off.status, 200);
    const res = await login(user);
    assert.equal(res.status, 200);
    assert.ok(res.body.token);
    assert.equal(await ctx().models.RecoveryCode.count({ where: { userId: user.id } }), 0);
  });
});
