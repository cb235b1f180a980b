import assert from 'node:assert/strict';
import request from 'supertest';
import type { Express } from 'express';
import { buildApp, ctx } from '../support/context';
import { PASSWORD, makeUser, nextClientIp, setCookies, tokenFor } from '../support/auth';
import { SoftAuthenticator } from '../support/passkey-authenticator';
import { enrolTotp } from '../support/totp';
import type { User } from '../../src/models';

const ORIGIN = 'http://localhost:3000';
const INVALID = { error: 'Invalid code' };
const FAILED = { error: 'Passkey sign-in failed' };

/**
 * Passkeys and the second step of sign-in (CONTRACT 9 + 10), through the second-factor registry of
 * src/sign-in/second-factor.ts: a passkey that verified its holder satisfies the second factor; a passkey is
 * one of the methods of the second step after a password.
 */
describe('passkeys as a second factor (CONTRACT 9 + 10)', () => {
  let app: Express;
  before(() => {
    app = buildApp({ env: { TRUST_PROXY: 'true' } });
  });

  async function userWith(options: { totp: boolean; passkey: boolean }): Promise<{ user: User; authenticator: SoftAuthenticator }> {
    const user = await makeUser({ role: 'author' });
    const token = await tokenFor(user);
    const authenticator = new SoftAuthenticator(ORIGIN);
    if (options.passkey) {
      const creation = (await request(app).post('/auth/passkeys/register/options').set('Authorization', `Bearer ${token}`).expect(200)).body;
      await request(app).post('/auth/passkeys/register/verify').set('Authorization', `Bearer ${token}`).send({ response: authenticator.create(creation) }).expect(201);
    }
    if (options.totp) await enrolTotp(app, token);
    return { user, authenticator };
  }

  const passwordSignIn = (user: User) => request(app).post('/auth/login').set('X-Forwarded-For', nextClientIp()).send({ email: user.email, password: PASSWORD });
  const stepOptions = (challenge: string) => request(app).post('/auth/2fa/passkey/options').set('X-Forwarded-For', nextClientIp()).send({ challenge });
  const stepVerify = (challenge: string, passkey: unknown) => request(app).post('/auth/2fa/verify').set('X-Forwarded-For', nextClientIp()).send({ challenge, passkey });

  it('when a user with TOTP and a passkey signs in with a password, then passkey is among the methods and a verified passkey completes the sign-in', async () => {
    const { user, authenticator } = await userWith({ totp: true, passkey: true });
    const first = await passwordSignIn(user).expect(200);
    assert.equal(first.body.twoFactorRequired, true);
    assert.deepEqual(first.body.methods, ['totp', 'recovery', 'passkey']);
    const options = (await stepOptions(first.body.challenge).expect(200)).body;
    assert.equal(options.userVerification, 'required');
    assert.deepEqual(options.allowCredentials.map((c: { id: string }) => c.id), [authenticator.credentials[0].id]);
    const done = await stepVerify(first.body.challenge, authenticator.get(options)).expect(200);
    assert.equal(done.body.user.id, user.id);
    assert.ok(setCookies(done).auth_token);
    assert.ok(await ctx().models.Session.findOne({ where: { userId: user.id, method: 'password+passkey' } }));
    // The sign-in challenge is spent with it.
    assert.deepEqual((await stepOptions(first.body.challenge)).body, FAILED);
  });

  it('when the second-step passkey did not verify its holder, is another user\'s, or answers a sign-in challenge, then Invalid code, and the right one still works after', async () => {
    const { user, authenticator } = await userWith({ totp: true, passkey: true });
    const { authenticator: other } = await userWith({ totp: false, passkey: true });
    const first = (await passwordSignIn(user).expect(200)).body;
    const refused = async (passkey: unknown, why: string) => {
      const res = await stepVerify(first.challenge, passkey);
      assert.equal(res.status, 401, why);
      assert.deepEqual(res.body, INVALID, why);
    };
    await refused(authenticator.get((await stepOptions(first.challenge).expect(200)).body, { userVerified: false }), 'no user verification');
    await refused(other.get((await stepOptions(first.challenge).expect(200)).body, { credential: other.credentials[0] }), 'another user\'s passkey');
    const signInOptions = (await request(app).post('/auth/passkeys/login/options').set('X-Forwarded-For', nextClientIp()).send({}).expect(200)).body;
    await refused(authenticator.get(signInOptions), 'a challenge of the sign-in ceremony');
    const wrong = await ctx().models.ActivityLog.count({ where: { action: 'auth.login_failed', userId: user.id } });
    assert.ok(wrong >= 3, 'each wrong answer is recorded');
    await stepVerify(first.challenge, authenticator.get((await stepOptions(first.challenge).expect(200)).body)).expect(200);
  });

  it('when a user with TOTP signs in with a passkey that verifies them, then no second step; without verification, the second step with passkey among its methods', async () => {
    const { user, authenticator } = await userWith({ totp: true, passkey: true });
    const options = async () => (await request(app).post('/auth/passkeys/login/options').set('X-Forwarded-For', nextClientIp()).send({}).expect(200)).body;
    const verify = (response: unknown) => request(app).post('/auth/passkeys/login/verify').set('X-Forwarded-For', nextClientIp()).send({ response });

    const direct = await verify(authenticator.get(await options())).expect(200);
    assert.equal(direct.body.user.id, user.id);
    assert.equal(typeof direct.body.token, 'string');

    const unverified = await verify(authenticator.get(await options(), { userVerified: false })).expect(200);
    assert.equal(unverified.body.twoFactorRequired, true);
    assert.equal(unverified.body.token, undefined);
    assert.equal(setCookies(unverified).auth_token, undefined);
    assert.deepEqual(unverified.body.methods, ['totp', 'recovery', 'passkey']);
    await stepVerify(unverified.body.challenge, authenticator.get((await stepOptions(unverified.body.challenge).expect(200)).body)).expect(200);
    assert.ok(await ctx().models.Session.findOne({ where: { userId: user.id, method: 'passkey+passkey' } }));
  });

  it('when a user has a passkey and no TOTP, then a password alone signs in (a passkey is a way in, not a second step); a challenge without passkey gets no options', async () => {
    const { user } = await userWith({ totp: false, passkey: true });
    const res = await passwordSignIn(user).expect(200);
    assert.equal(typeof res.body.token, 'string');
    const { user: totpOnly } = await userWith({ totp: true, passkey: false });
    const first = (await passwordSignIn(totpOnly).expect(200)).body;
    assert.deepEqual(first.methods, ['totp', 'recovery']);
    assert.deepEqual((await stepOptions(first.challenge)).body, FAILED);
    assert.deepEqual((await stepOptions('not-a-challenge')).body, FAILED);
  });

  it('when a second-step assertion is sent five times at once, then exactly one signs in', async () => {
    const { user, authenticator } = await userWith({ totp: true, passkey: true });
    const first = (await passwordSignIn(user).expect(200)).body;
    const response = authenticator.get((await stepOptions(first.challenge).expect(200)).body);
    const answers = await Promise.all(Array.from({ length: 5 }, () => stepVerify(first.challenge, response)));
    assert.deepEqual(answers.map((res) => res.status).sort(), [200, 401, 401, 401, 401]);
  });
});
