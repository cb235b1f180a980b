import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import request from 'supertest';
import type { Express } from 'express';
import { buildApp, ctx, uniqueEmail } from '../support/context';
import { createUserWithToken, tokenFor } from '../support/users';
import { nextClientIp, setCookies } from '../support/auth';
import { SoftAuthenticator } from '../support/passkey-authenticator';
import { startSmtpSink } from '../support/smtp-sink';
import type { User } from '../../src/models';

const ORIGIN = 'http://localhost:3000';
const FAILED = { error: 'Passkey sign-in failed' };

/** A user signed in just now, their Bearer token and a software authenticator holding one registered passkey. */
async function userWithPasskey(app: Express, options: { counting?: boolean; name?: string } = {}) {
  const { user, token } = await createUserWithToken('author');
  const authenticator = new SoftAuthenticator(ORIGIN, options.counting ?? true);
  const passkey = await register(app, token, authenticator, options.name);
  return { user, token, authenticator, passkey };
}

async function register(app: Express, token: string, authenticator: SoftAuthenticator, name?: string) {
  const options = await request(app).post('/auth/passkeys/register/options').set('Authorization', `Bearer ${token}`).expect(200);
  const res = await request(app)
    .post('/auth/passkeys/register/verify')
    .set('Authorization', `Bearer ${token}`)
    .send({ response: authenticator.create(options.body), ...(name ? { name } : {}) })
    .expect(201);
  return res.body.passkey as { id: string; name: string; createdAt: string; lastUsedAt: string | null };
}

const loginOptions = (app: Express, body: object = {}) => request(app).post('/auth/passkeys/login/options').set('X-Forwarded-For', nextClientIp()).send(body);
const loginVerify = (app: Express, response: unknown) => request(app).post('/auth/passkeys/login/verify').set('X-Forwarded-For', nextClientIp()).send({ response });
const countOf = (user: User) => ctx().models.Passkey.count({ where: { userId: user.id } });

describe('passkeys JSON API (CONTRACT 10)', () => {
  let app: Express;
  before(() => {
    app = buildApp({ env: { TRUST_PROXY: 'true' } });
  });

  describe('registering, listing and removing', () => {
    it('when a signed-in user registers a passkey, then it is answered 201, listed, stored binary-safe, and recorded', async () => {
      const { user, token, authenticator, passkey } = await userWithPasskey(app, { name: 'Work laptop' });
      assert.equal(passkey.name, 'Work laptop');
      assert.equal(passkey.lastUsedAt, null);
      assert.ok(!Number.isNaN(Date.parse(passkey.createdAt)));
      const listed = await request(app).get('/auth/passkeys').set('Authorization', `Bearer ${token}`).expect(200);
      assert.deepEqual(listed.body, { passkeys: [passkey] });
      const row = await ctx().models.Passkey.findByPk(passkey.id, { rejectOnEmpty: true });
      // The id comes back byte for byte (base64url is case-sensitive; MariaDB's default collation is not).
      assert.equal(row.credentialId, authenticator.credentials[0].id);
      assert.equal(row.credentialHash, crypto.createHash('sha256').update(Buffer.from(row.credentialId, 'base64url')).digest('hex'));
      assert.equal(row.counter, 0);
      assert.ok(await ctx().models.ActivityLog.findOne({ where: { action: 'passkey.added', userId: user.id } }));
    });

    it('when no name is given, then the passkey is named by its number; a name of control characters is refused', async () => {
      const { token, authenticator } = await userWithPasskey(app);
      const second = await register(app, token, authenticator);
      assert.equal(second.name, 'Passkey 2');
      const options = await request(app).post('/auth/passkeys/register/options').set('Authorization', `Bearer ${token}`).expect(200);
      const res = await request(app).post('/auth/passkeys/register/verify').set('Authorization', `Bearer ${token}`).send({ response: authenticator.create(options.body), name: 'a\u0000b' });
      assert.equal(res.status, 400);
    });

    it('when the options exclude what the user has, then the user handle is theirs and RP is BASE_URL\'s host', async () => {
      const { user, token, authenticator } = await userWithPasskey(app);
      const options = await request(app).post('/auth/passkeys/register/options').set('Authorization', `Bearer ${token}`).expect(200);
      assert.equal(options.body.rp.id, 'localhost');
      assert.equal(options.body.rp.name, 'Auth service');
      assert.equal(Buffer.from(options.body.user.id, 'base64url').toString(), user.id);
      assert.deepEqual(options.body.excludeCredentials.map((c: { id: string }) => c.id), [authenticator.credentials[0].id]);
      assert.equal(options.body.authenticatorSelection.residentKey, 'preferred');
      assert.equal(options.body.authenticatorSelection.userVerification, 'preferred');
      assert.equal(options.body.timeout, 300_000);
    });

    it('when the sign-in is older than 10 minutes, then adding and removing answer 403 stepUp', async () => {
      const { user, passkey } = await userWithPasskey(app);
      const old = await tokenFor(user, { sid: crypto.randomUUID(), authTime: Math.floor(Date.now() / 1000) - 11 * 60 });
      const stepUp = { error: 'Recent sign-in required', stepUp: true };
      assert.deepEqual((await request(app).post('/auth/passkeys/register/options').set('Authorization', `Bearer ${old}`).expect(403)).body, stepUp);
      assert.deepEqual((await request(app).delete(`/auth/passkeys/${passkey.id}`).set('Authorization', `Bearer ${old}`).expect(403)).body, stepUp);
      await request(app).get('/auth/passkeys').set('Authorization', `Bearer ${old}`).expect(200);
    });

    it('when a passkey is removed, then 204, it is gone from the list, a second removal is 404, and another user cannot remove one', async () => {
      const { user, token, passkey } = await userWithPasskey(app);
      const other = await createUserWithToken('author');
      await request(app).delete(`/auth/passkeys/${passkey.id}`).set('Authorization', `Bearer ${other.token}`).expect(404);
      await request(app).delete(`/auth/passkeys/${passkey.id}`).set('Authorization', `Bearer ${token}`).expect(204);
      assert.deepEqual((await request(app).get('/auth/passkeys').set('Authorization', `Bearer ${token}`)).body, { passkeys: [] });
      assert.deepEqual((await request(app).delete(`/auth/passkeys/${passkey.id}`).set('Authorization', `Bearer ${token}`).expect(404)).body, { error: 'Passkey not found' });
      assert.ok(await ctx().models.ActivityLog.findOne({ where: { action: 'passkey.removed', userId: user.id } }));
    });

    it('when a passkey is added, then its owner is mailed a notice naming it (CONTRACT 9 notices), without key material', async () => {
      const sink = await startSmtpSink();
      try {
        const mailing = buildApp({ env: { SMTP_URL: sink.url, EMAIL_FROM: 'auth@example.test' } });
        const { user, authenticator, passkey } = await userWithPasskey(mailing, { name: 'Travel key' });
        const mail = await sink.waitFor((m) => m.envelope.to.includes(user.email) && /passkey was added/.test(m.subject));
        assert.match(mail.text, /"Travel key"/);
        const row = await ctx().models.Passkey.findByPk(passkey.id, { rejectOnEmpty: true });
        for (const secret of [row.publicKey, row.credentialId, authenticator.credentials[0].id]) assert.ok(!mail.text.includes(secret) && !mail.html.includes(secret));
      } finally {
        await sink.stop();
      }
    });

    it('when the user is deleted, then their passkeys go with them (ON DELETE CASCADE, both databases)', async () => {
      const { user } = await userWithPasskey(app);
      await ctx().models.User.destroy({ where: { id: user.id } });
      assert.equal(await countOf(user), 0);
    });

    it('when signed out, then every account route answers 401', async () => {
      await request(app).post('/auth/passkeys/register/options').expect(401);
      await request(app).post('/auth/passkeys/register/verify').send({}).expect(401);
      await request(app).get('/auth/passkeys').expect(401);
      await request(app).delete(`/auth/passkeys/${crypto.randomUUID()}`).expect(401);
    });
  });

  describe('registration refusals store nothing', () => {
    it('when a registration response is sent twice, for another user\'s challenge, or with a wrong origin or RP ID, then 400', async () => {
      const { user, token } = await createUserWithToken('author');
      const other = await createUserWithToken('author');
      const authenticator = new SoftAuthenticator(ORIGIN);
      const optionsFor = async (bearer: string) => (await request(app).post('/auth/passkeys/register/options').set('Authorization', `Bearer ${bearer}`).expect(200)).body;
      const verify = (bearer: string, response: unknown) => request(app).post('/auth/passkeys/register/verify').set('Authorization', `Bearer ${bearer}`).send({ response });

      const expired = { error: 'This passkey registration expired or was already used. Please start again.' };
      // Another user's challenge: refused (and that challenge is spent).
      assert.deepEqual((await verify(token, authenticator.create(await optionsFor(other.token)))).body, expired);
      // A challenge never issued.
      const made = authenticator.create({ ...(await optionsFor(token)), challenge: 'bm90LWEtY2hhbGxlbmdl' });
      assert.deepEqual((await verify(token, made)).body, expired);
      const failed = { error: 'Passkey registration failed' };
      assert.deepEqual((await verify(token, authenticator.create(await optionsFor(token), { origin: 'http://localhost:4000' }))).body, failed);
      assert.deepEqual((await verify(token, authenticator.create(await optionsFor(token), { rpId: 'evil.example' }))).body, failed);
      // Reuse: the first use succeeds, the second finds its challenge gone.
      const good = authenticator.create(await optionsFor(token));
      assert.equal((await verify(token, good)).status, 201);
      const again = await verify(token, good);
      assert.equal(again.status, 400);
      assert.deepEqual(again.body, expired);
      assert.equal(await countOf(user), 1);
      assert.equal(await countOf(other.user as User), 0);
    });

    it('when a credential already registered is registered again, by its owner or by another user, then 409 and no second row', async () => {
      const { user, token, authenticator } = await userWithPasskey(app);
      const other = await createUserWithToken('author');
      const again = async (bearer: string) => {
        const options = (await request(app).post('/auth/passkeys/register/options').set('Authorization', `Bearer ${bearer}`).expect(200)).body;
        const response = authenticator.create(options, { credential: authenticator.credentials[0] });
        return request(app).post('/auth/passkeys/register/verify').set('Authorization', `Bearer ${bearer}`).send({ response });
      };
      for (const bearer of [token, other.token]) {
        const res = await again(bearer);
        assert.equal(res.status, 409);
        assert.deepEqual(res.body, { error: 'This passkey is already registered' });
      }
      assert.equal(await countOf(user), 1);
      assert.equal(await countOf(other.user as User), 0);
    });
  });

  describe('signing in', () => {
    it('when a discoverable passkey answers {} options, then the normal sign-in answer: token, cookies, a passkey session, last used set', async () => {
      const { user, passkey, authenticator } = await userWithPasskey(app);
      const options = await loginOptions(app).expect(200);
      assert.equal(options.body.rpId, 'localhost');
      assert.equal(options.body.allowCredentials, undefined);
      const res = await loginVerify(app, authenticator.get(options.body)).expect(200);
      assert.equal(res.body.user.id, user.id);
      assert.equal(typeof res.body.token, 'string');
      const cookies = setCookies(res);
      assert.ok(cookies.auth_token && cookies.csrf_token);
      const session = await ctx().models.Session.findOne({ where: { userId: user.id, method: 'passkey' } });
      assert.ok(session, 'a session row by passkey');
      const row = await ctx().models.Passkey.findByPk(passkey.id, { rejectOnEmpty: true });
      assert.ok(row.lastUsedAt);
      assert.equal(row.counter, 1);
      assert.ok(await ctx().models.ActivityLog.findOne({ where: { action: 'auth.passkey_login', userId: user.id } }));
      await request(app).get('/auth/me').set('Authorization', `Bearer ${res.body.token}`).expect(200);
    });

    it('when {email} is sent, then its passkeys are allowed; an unknown email or one without passkeys gets options of the same shape, the same twice', async () => {
      const { user, authenticator } = await userWithPasskey(app);
      const real = (await loginOptions(app, { email: user.email }).expect(200)).body;
      assert.deepEqual(real.allowCredentials, [{ id: authenticator.credentials[0].id, type: 'public-key' }]);
      await loginVerify(app, authenticator.get(real)).expect(200);

      const unknown = uniqueEmail('nobody');
      const decoy = (await loginOptions(app, { email: unknown }).expect(200)).body;
      const again = (await loginOptions(app, { email: unknown.toUpperCase() }).expect(200)).body;
      assert.deepEqual(Object.keys(decoy).sort(), Object.keys(real).sort());
      assert.deepEqual(decoy.allowCredentials, again.allowCredentials, 'stable, as a real account\'s');
      assert.ok(decoy.allowCredentials.length >= 1);
      for (const descriptor of decoy.allowCredentials) {
        assert.deepEqual(Object.keys(descriptor).sort(), ['id', 'type']);
        assert.match(descriptor.id, /^[A-Za-z0-9_-]{20,}$/);
      }
      const { user: withNone } = await createUserWithToken('viewer');
      const none = (await loginOptions(app, { email: withNone.email }).expect(200)).body;
      assert.deepEqual(Object.keys(none).sort(), Object.keys(real).sort());
      assert.notDeepEqual(none.allowCredentials, decoy.allowCredentials);
    });

    it('when {email} options are asked for a real account and for an unknown one, then both answers have the same keys and descriptors without transports', async () => {
      const { user } = await userWithPasskey(app);
      const real = (await loginOptions(app, { email: user.email }).expect(200)).body;
      const standIn = (await loginOptions(app, { email: uniqueEmail('stand-in') }).expect(200)).body;

      const shape = (options: { allowCredentials: Array<Record<string, unknown>> }) => ({
        keys: Object.keys(options).sort(),
        descriptors: [...new Set(options.allowCredentials.map((descriptor) => Object.keys(descriptor).sort().join(',')))],
      });
      assert.deepEqual(shape(standIn), shape(real));
      assert.deepEqual(shape(real).descriptors, ['id,type'], 'a stored transport would tell a real passkey from a stand-in');
    });

    it('when another user\'s passkey answers {email} options, then 401 with the one body', async () => {
      const alice = await userWithPasskey(app);
      const bob = await userWithPasskey(app);
      const options = (await loginOptions(app, { email: alice.user.email }).expect(200)).body;
      const res = await loginVerify(app, bob.authenticator.get(options, { credential: bob.authenticator.credentials[0] }));
      assert.equal(res.status, 401);
      assert.deepEqual(res.body, FAILED);
      assert.equal(setCookies(res).auth_token, undefined);
      // An unknown email's challenge is answered by nobody's passkey.
      const decoy = (await loginOptions(app, { email: uniqueEmail('ghost') }).expect(200)).body;
      assert.deepEqual((await loginVerify(app, bob.authenticator.get(decoy, { credential: bob.authenticator.credentials[0] }))).body, FAILED);
    });

    it('when a challenge is reused, the counter goes backwards, the origin or RP ID is wrong, the credential is unknown or removed, the user handle is another\'s, or the signature is bad, then each is 401 with the same body', async () => {
      const { user, token, authenticator, passkey } = await userWithPasskey(app);
      const options = async () => (await loginOptions(app).expect(200)).body;
      const refused = async (response: unknown, reason: string) => {
        const res = await loginVerify(app, response);
        assert.equal(res.status, 401, reason);
        assert.deepEqual(res.body, FAILED, reason);
        assert.equal(setCookies(res).auth_token, undefined, reason);
      };

      const first = authenticator.get(await options());
      await loginVerify(app, first).expect(200);
      await refused(first, 'reused challenge');
      await refused(authenticator.get(await options(), { counter: 1 }), 'counter not moving forward');
      await refused(authenticator.get(await options(), { origin: 'http://localhost:4000' }), 'wrong origin');
      await refused(authenticator.get(await options(), { rpId: 'evil.example' }), 'wrong RP ID');
      await refused(authenticator.get(await options(), { userHandle: Buffer.from(crypto.randomUUID()).toString('base64url') }), 'another user handle');
      const forged = authenticator.get(await options());
      await refused({ ...forged, response: { ...forged.response, signature: authenticator.get(await options()).response.signature } }, 'signature of another message');
      const stranger = new SoftAuthenticator(ORIGIN);
      const { user: strangerUser } = await createUserWithToken('viewer');
      stranger.create({ rp: { id: 'localhost', name: 'x' }, user: { id: Buffer.from(strangerUser.id).toString('base64url'), name: 'x', displayName: 'x' }, challenge: 'x', pubKeyCredParams: [] });
      await refused(stranger.get(await options()), 'unknown credential');

      await request(app).delete(`/auth/passkeys/${passkey.id}`).set('Authorization', `Bearer ${token}`).expect(204);
      await refused(authenticator.get(await options()), 'removed credential');
      const reasons = (await ctx().models.ActivityLog.findAll({ where: { action: 'auth.login_failed', userId: user.id } })).map((row) => (row.details as { reason: string }).reason);
      // The refusals of this user's own credential name their reason in the activity log (never to the client).
      for (const reason of ['counter', 'origin', 'rp_id', 'user_handle', 'signature']) assert.ok(reasons.includes(reason), `${reason} in ${reasons.join(',')}`);
    });

    it('when a deactivated user signs in with their passkey, then 401 with the same body', async () => {
      const { user, authenticator } = await userWithPasskey(app);
      await ctx().models.User.update({ active: false }, { where: { id: user.id } });
      assert.deepEqual((await loginVerify(app, authenticator.get((await loginOptions(app).expect(200)).body))).body, FAILED);
    });

    it('when an authenticator keeps no counter (always 0), then it signs in again and again', async () => {
      const { user, authenticator } = await userWithPasskey(app, { counting: false });
      for (let i = 0; i < 3; i += 1) await loginVerify(app, authenticator.get((await loginOptions(app, { email: user.email }).expect(200)).body)).expect(200);
    });

    it('when one assertion is sent five times at once, then exactly one signs in', async () => {
      const { authenticator } = await userWithPasskey(app);
      const response = authenticator.get((await loginOptions(app).expect(200)).body);
      const answers = await Promise.all(Array.from({ length: 5 }, () => loginVerify(app, response)));
      assert.deepEqual(answers.map((res) => res.status).sort(), [200, 401, 401, 401, 401]);
    });

    it('when a ceremony begins on one instance, then it finishes on another (the challenge is in the shared store)', async () => {
      const { authenticator } = await userWithPasskey(app);
      const other = buildApp({ env: { TRUST_PROXY: 'true' } });
      const options = (await loginOptions(app).expect(200)).body;
      await loginVerify(other, authenticator.get(options)).expect(200);
    });

    it('when the auth cookie of another sign-in rides along, then passkey sign-in needs no CSRF token (it is a sign-in)', async () => {
      const { authenticator, token } = await userWithPasskey(app);
      const options = (await loginOptions(app).expect(200)).body;
      await request(app).post('/auth/passkeys/login/verify').set('Cookie', `auth_token=${token}`).send({ response: authenticator.get(options) }).expect(200);
    });
  });
});

