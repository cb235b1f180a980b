import assert from 'node:assert/strict';
import request from 'supertest';
import type { Express } from 'express';
import { ctx, buildApp, uniqueEmail } from '../support/context';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import { createUserWithToken, tokenFor } from '../support/users';
import { makeUser, nextClientIp, PASSWORD } from '../support/auth';
import { configureOtp, mailedOtpCode } from '../support/otp';
import { EXTERNAL_AUTH_SECRET, follow, mailedLink } from '../support/magic-link';
import { OAuthProviderStandIn, configureProviders, signInWith } from '../support/oauth-provider';
import type { User } from '../../src/models';

/**
 * CONTRACT 12, the squatter rule: someone registers the victim's address with a password before the victim
 * arrives. When the owner proves the address (code, magic link, verified provider email) the password goes
 * and every session the squatter holds ends; an account already verified keeps its password.
 */
describe('The squatter rule (CONTRACT 12)', () => {
  let sink: SmtpSink;
  let app: Express;
  let stand: OAuthProviderStandIn;
  let githubId = 5000;

  const passwordLogin = (email: string) => request(app).post('/auth/login').set('X-Forwarded-For', nextClientIp()).send({ email, password: PASSWORD });
  const me = (token: string) => request(app).get('/auth/me').set('Authorization', `Bearer ${token}`);

  /** The squatted account, and a token its squatter holds (signed in with the password). */
  async function squatted(): Promise<{ user: User; squatterToken: string }> {
    const user = await makeUser({ emailVerified: false });
    const signedIn = await passwordLogin(user.email);
    assert.equal(signedIn.status, 200);
    return { user, squatterToken: signedIn.body.token as string };
  }

  /** What the owner's proof must have done to the account and the squatter. */
  async function assertCleared(user: User, squatterToken: string, ownerToken: string, via: string) {
    const stored = await ctx().models.User.findByPk(user.id);
    assert.equal(stored?.passwordHash, null, 'the password is gone');
    assert.ok(stored?.emailVerifiedAt, 'the address is verified');
    assert.equal((await passwordLogin(user.email)).status, 401, "the squatter's password no longer signs in");
    assert.equal((await me(squatterToken)).status, 401, "the squatter's session ended");
    const owner = await me(ownerToken);
    assert.equal(owner.status, 200, "the owner's new session works");
    assert.equal(owner.body.user.emailVerified, true);
    const rows = await ctx().models.ActivityLog.findAll({ where: { action: 'user.unverified_password_cleared', userId: user.id } });
    assert.equal(rows.length, 1);
    assert.deepEqual(rows[0].details, { via });
  }

  before(async () => {
    sink = await startSmtpSink();
    stand = await new OAuthProviderStandIn().start();
    app = buildApp({ env: { SMTP_URL: sink.url, EMAIL_FROM: 'auth@example.test', EXTERNAL_AUTH_SECRET, TRUST_PROXY: 'true' } });
    const { token } = await createUserWithToken('admin');
    await configureOtp(app, { Authorization: `Bearer ${token}` });
    await configureProviders({ github: stand.settingsFor('github') });
  });

  after(async () => {
    await ctx().models.Plugin.destroy({ where: {} });
    await stand.stop();
    await sink.stop();
  });

  it('when the owner signs in with a one-time code, then the password is removed and the squatter is signed out', async () => {
    const { user, squatterToken } = await squatted();
    const code = await mailedOtpCode(app, sink, user.email, nextClientIp());
    const res = await request(app).post('/auth/otp/verify').set('X-Forwarded-For', nextClientIp()).send({ email: user.email, code });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    await assertCleared(user, squatterToken, res.body.token, 'otp');
  });

  it('when the owner signs in with a magic link, then the password is removed and the squatter is signed out', async () => {
    const { user, squatterToken } = await squatted();
    const res = await follow(app, await mailedLink(app, sink, user.email));
    assert.equal(res.status, 302);
    assert.equal(res.headers.location, '/admin');
    const token = (res.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('auth_token='))!.split(';')[0].split('=')[1];
    await assertCleared(user, squatterToken, decodeURIComponent(token), 'magic_link');
  });

  it('when the owner signs in with a provider that verified the address, then the password is removed and the squatter is signed out', async () => {
    const { user, squatterToken } = await squatted();
    githubId += 1;
    stand.as('github', { id: githubId, login: `owner${githubId}`, email: null, emails: [{ email: user.email, primary: true, verified: true }] });
    const { callback } = await signInWith(app, 'github');
    assert.equal(callback.status, 302);
    assert.equal(callback.headers.location, '/admin');
    const token = (callback.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('auth_token='))!.split(';')[0].split('=')[1];
    await assertCleared(user, squatterToken, decodeURIComponent(token), 'github');
  });

  it('when a verified account signs in with a code, then its password and sessions stay', async () => {
    const user = await makeUser();
    const session = await tokenFor(user);
    const code = await mailedOtpCode(app, sink, user.email, nextClientIp());
    assert.equal((await request(app).post('/auth/otp/verify').set('X-Forwarded-For', nextClientIp()).send({ email: user.email, code })).status, 200);
    assert.equal((await passwordLogin(user.email)).status, 200);
    assert.equal((await me(session)).status, 200);
    assert.equal(await ctx().models.ActivityLog.count({ where: { action: 'user.unverified_password_cleared', userId: user.id } }), 0);
  });

  it('when an account without a password is proven by a code, then it is only marked verified', async () => {
    const email = uniqueEmail('nopw');
    const user = await makeUser({ email, password: null, emailVerified: false });
    const code = await mailedOtpCode(app, sink, email, nextClientIp());
    const res = await request(app).post('/auth/otp/verify').set('X-Forwarded-For', nextClientIp()).send({ email, code });
    assert.equal(res.status, 200);
    assert.equal((await me(res.body.token)).body.user.emailVerified, true);
    assert.equal(await ctx().models.ActivityLog.count({ where: { action: 'user.unverified_password_cleared', userId: user.id } }), 0);
  });
});
