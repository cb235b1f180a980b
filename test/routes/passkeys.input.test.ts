import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fc from 'fast-check';
import request from 'supertest';
import type { Express } from 'express';
import { buildApp, ctx } from '../support/context';
import { createUserWithToken, tokenFor } from '../support/users';
import { PASSWORD, makeUser, nextClientIp } from '../support/auth';
import { formBody, location, sessionFor } from '../support/admin-pages';
import { SoftAuthenticator } from '../support/passkey-authenticator';
import type { User } from '../../src/models';

const ORIGIN = 'http://localhost:3000';
const FAILED = { error: 'Passkey sign-in failed' };
const UNAVAILABLE = { error: 'Passkeys need a host name in BASE_URL' };
const b64 = (text: string) => Buffer.from(text).toString('base64url');

describe('passkeys: bad input, IP-address BASE_URL, pages (CONTRACT 10)', () => {
  let app: Express;
  before(() => {
    app = buildApp({ env: { TRUST_PROXY: 'true' } });
  });

  /** Rows a refused request must not have written. */
  async function rowsOf(user: User) {
    return { passkeys: await ctx().models.Passkey.count({ where: { userId: user.id } }), sessions: await ctx().models.Session.count({ where: { userId: user.id, method: 'passkey' } }) };
  }

  describe('bad input: 400 or 401 with a clear error, never 500, nothing stored', () => {
    it('when a ceremony body is malformed JSON, of the wrong types, oversized or not base64url, then 400 naming the field', async () => {
      const { user, token } = await createUserWithToken('author');
      const bearer = { Authorization: `Bearer ${token}` };
      const routes = ['/auth/passkeys/register/verify', '/auth/passkeys/login/options', '/auth/passkeys/login/verify'];
      for (const route of routes) {
        const res = await request(app).post(route).set(bearer).set('X-Forwarded-For', nextClientIp()).set('Content-Type', 'application/json').send('{"response": {');
        assert.equal(res.status, 400, route);
        assert.equal(typeof res.body.error, 'string', route);
      }
      const verify = (route: string, body: unknown) => request(app).post(route).set(bearer).set('X-Forwarded-For', nextClientIp()).send(body as object);
      const cases: Array<[string, unknown, string, string]> = [
        ['/auth/passkeys/register/verify', {}, 'response', 'is required'],
        ['/auth/passkeys/register/verify', { response: 'abc' }, 'response', 'must be an object'],
        ['/auth/passkeys/register/verify', { response: { id: 'AA', rawId: 'AA', type: 'public-key', response: { clientDataJSON: 'AA', attestationObject: 'AA' } }, name: 42 }, 'name', 'must be a string'],
        ['/auth/passkeys/register/verify', { response: { id: 'AA', rawId: 'AA', type: 'public-key', response: { clientDataJSON: 'AA', attestationObject: 'AA' } }, name: 'x'.repeat(65) }, 'name', 'must be at most 64 characters'],
        ['/auth/passkeys/register/verify', { response: { id: 'AA', rawId: 'AA', type: 'password', response: { clientDataJSON: 'AA', attestationObject: 'AA' } } }, 'response.type', 'must be public-key'],
                ['/auth/passkeys/login/options', { email: 'not an email' }, 'email', 'must be a valid email address'],
        ['/auth/passkeys/login/options', { user: 'x' }, 'user', 'unknown field'],
        ['/auth/passkeys/login/verify', { response: [] }, 'response', 'must be an object'],
        ['/auth/passkeys/login/verify', { response: { id: 'AA', rawId: 'AA', type: 'public-key', response: { clientDataJSON: 'x'.repeat(5000), authenticatorData: 'AA', signature: 'AA' } } }, 'response.response.clientDataJSON', 'must be at most 4096 characters'],
        ['/auth/passkeys/login/verify', { response: { id: 'AA', rawId: 'A+/=', type: 'public-key', response: { clientDataJSON: 'AA', authenticatorData: 'AA', signature: 'AA' } } }, 'response.rawId', 'must be base64url'],
        ['/auth/passkeys/login/verify', { response: { id: 'AA', rawId: 'AA', type: 'public-key', response: { clientDataJSON: 'AA', authenticatorData: 'AA', signature: 7 } } }, 'response.response.signature', 'must be a string'],
      ];
      for (const [route, body, field, message] of cases) {
        const res = await verify(route, body);
        assert.equal(res.status, 400, `${route} ${JSON.stringify(body).slice(0, 80)}`);
        assert.equal(res.body.errors?.[field], message, `${route} ${field}: ${JSON.stringify(res.body)}`);
      }
      const huge = await verify('/auth/passkeys/login/verify', { response: { id: 'A'.repeat(200_000) } });
      assert.equal(huge.status, 413);
      assert.deepEqual(await rowsOf(user as User), { passkeys: 0, sessions: 0 });
    });

    it('when the bytes are base64url but not what an authenticator sends (no JSON, no CBOR, no challenge), then 401 for sign-in and 400 for registration', async () => {
      const { user, token } = await createUserWithToken('author');
      const authenticator = new SoftAuthenticator(ORIGIN);
      const garbage = b64('not json at all');
      const signIn = (response: unknown) => request(app).post('/auth/passkeys/login/verify').set('X-Forwarded-For', nextClientIp()).send({ response });
      const assertion = { id: 'AAAA', rawId: 'AAAA', type: 'public-key', response: { clientDataJSON: garbage, authenticatorData: 'AAAA', signature: 'AAAA' } };
      assert.deepEqual((await signIn(assertion)).body, FAILED);
      // A real challenge, then bytes the library cannot parse: refused, and the challenge is spent.
      const options = (await request(app).post('/auth/passkeys/login/options').set('X-Forwarded-For', nextClientIp()).send({}).expect(200)).body;
      const clientDataJSON = b64(JSON.stringify({ type: 'webauthn.get', challenge: options.challenge, origin: ORIGIN }));
      const res = await signIn({ ...assertion, response: { ...assertion.response, clientDataJSON } });
      assert.equal(res.status, 401);
      assert.deepEqual(res.body, FAILED);

      const register = (response: unknown) => request(app).post('/auth/passkeys/register/verify').set('Authorization', `Bearer ${token}`).send({ response });
      const creation = (await request(app).post('/auth/passkeys/register/options').set('Authorization', `Bearer ${token}`).expect(200)).body;
      const made = authenticator.create(creation);
      const broken = await register({ ...made, response: { ...made.response, attestationObject: b64('not cbor') } });
      assert.equal(broken.status, 400);
      assert.deepEqual(broken.body, { error: 'Passkey registration failed' });
      // That challenge is spent too: the untouched response now finds nothing to answer.
      assert.equal((await register(made)).status, 400);
      assert.equal((await register({ ...made, response: { ...made.response, clientDataJSON: garbage } })).status, 400);
      assert.deepEqual(await rowsOf(user as User), { passkeys: 0, sessions: 0 });
    });

    it('when the fields are any base64url at all (generated), then sign-in answers 400 or 401 and registration 400, never 500', async function () {
      this.timeout(60_000);
      const { user, token } = await createUserWithToken('author');
      const field = fc.oneof(fc.base64String({ maxLength: 200 }).map((text) => text.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '') || 'AA'), fc.constantFrom('AA', 'A', '_-_-'));
      const quotedChallenge = fc.boolean();
      await fc.assert(
        fc.asyncProperty(field, field, field, field, quotedChallenge, async (id, authData, signature, attestation, quote) => {
          const challenge = quote ? (await request(app).post('/auth/passkeys/login/options').set('X-Forwarded-For', nextClientIp()).send({}).expect(200)).body.challenge : 'x';
          const clientDataJSON = quote ? b64(JSON.stringify({ type: 'webauthn.get', challenge, origin: ORIGIN })) : id;
          const signIn = await request(app).post('/auth/passkeys/login/verify').set('X-Forwarded-For', nextClientIp())
            .send({ response: { id, rawId: id, type: 'public-key', response: { clientDataJSON, authenticatorData: authData, signature, userHandle: signature } } });
          assert.ok([400, 401].includes(signIn.status), `sign-in ${signIn.status} ${JSON.stringify(signIn.body)}`);
          // A real registration challenge too, so the library parses the attestation bytes.
          const creation = quote ? (await request(app).post('/auth/passkeys/register/options').set('Authorization', `Bearer ${token}`).expect(200)).body.challenge : 'x';
          const createData = quote ? b64(JSON.stringify({ type: 'webauthn.create', challenge: creation, origin: ORIGIN })) : id;
          const register = await request(app).post('/auth/passkeys/register/verify').set('Authorization', `Bearer ${token}`)
            .send({ response: { id, rawId: id, type: 'public-key', response: { clientDataJSON: createData, attestationObject: attestation, transports: ['internal'] } } });
          assert.equal(register.status, 400, `registration ${register.status} ${JSON.stringify(register.body)}`);
        }),
        { numRuns: 150 },
      );
      assert.deepEqual(await rowsOf(user as User), { passkeys: 0, sessions: 0 });
    });

    it('when a login response is sent to registration (or a registration challenge answered by a sign-in), then refused', async () => {
      const { user, token } = await createUserWithToken('author');
      const authenticator = new SoftAuthenticator(ORIGIN);
      const creation = (await request(app).post('/auth/passkeys/register/options').set('Authorization', `Bearer ${token}`).expect(200)).body;
      await request(app).post('/auth/passkeys/register/verify').set('Authorization', `Bearer ${token}`).send({ response: authenticator.create(creation) }).expect(201);
      // A sign-in assertion for a registration challenge: its ceremony type is wrong, and the challenge is of the other kind.
      const another = (await request(app).post('/auth/passkeys/register/options').set('Authorization', `Bearer ${token}`).expect(200)).body;
      const crossed = authenticator.get({ challenge: another.challenge, rpId: 'localhost' } as never);
      assert.deepEqual((await request(app).post('/auth/passkeys/login/verify').set('X-Forwarded-For', nextClientIp()).send({ response: crossed })).body, FAILED);
      assert.deepEqual(await rowsOf(user as User), { passkeys: 1, sessions: 0 });
    });
  });

  describe('an IP-address BASE_URL', () => {
    for (const baseUrl of ['http://127.0.0.1:3000', 'http://[::1]:3000']) {
      it(`when BASE_URL is ${baseUrl}, then every passkey route answers 503 and the pages offer no passkey`, async () => {
        const ipApp = buildApp({ env: { BASE_URL: baseUrl } });
        const user = await makeUser({ role: 'author' });
        const bearer = { Authorization: `Bearer ${await tokenFor(user)}` };
        const answers = await Promise.all([
          request(ipApp).post('/auth/passkeys/register/options').set(bearer),
          request(ipApp).post('/auth/passkeys/register/verify').set(bearer).send({}),
          request(ipApp).get('/auth/passkeys').set(bearer),
          request(ipApp).delete(`/auth/passkeys/${crypto.randomUUID()}`).set(bearer),
          request(ipApp).post('/auth/passkeys/login/options').send({}),
          request(ipApp).post('/auth/passkeys/login/verify').send({}),
        ]);
        for (const res of answers) {
          assert.equal(res.status, 503);
          assert.deepEqual(res.body, UNAVAILABLE);
        }
        const login = await request(ipApp).get('/auth/login').expect(200);
        assert.doesNotMatch(login.text, /passkey/i);
        // Tokens name the BASE_URL they were issued for: sign in on this app.
        const signedIn = await request(ipApp).post('/auth/login').send({ email: user.email, password: PASSWORD }).expect(200);
        const profile = await request(ipApp).get('/admin/profile/security').set('Authorization', `Bearer ${signedIn.body.token}`).set('Accept', 'text/html').expect(200);
        assert.match(profile.text, /<h1>Security<\/h1>/);
        assert.doesNotMatch(profile.text, /Passkeys<\/h2>|passkeys-profile\.js/);
      });
    }
  });

  describe('pages', () => {
    it('when the sign-in page is drawn, then the passkey section is hidden until its script shows it, and the scripts are files of ours', async () => {
      const login = await request(app).get('/auth/login?redirect=%2Fadmin%2Fprofile').expect(200);
      assert.match(login.text, /<section id="passkey-sign-in"[^>]*data-redirect="\/admin\/profile"[^>]*hidden>/);
      assert.match(login.text, /<script src="\/static\/vendor\/simplewebauthn\/index\.umd\.min\.js" defer><\/script>/);
      const bundle = await request(app).get('/static/vendor/simplewebauthn/index.umd.min.js').expect(200);
      assert.match(String(bundle.headers['content-type']), /javascript/);
      assert.match(bundle.text, /SimpleWebAuthnBrowser/);
      await request(app).get('/static/passkeys-sign-in.js').expect(200);
      await request(app).get('/static/passkeys-profile.js').expect(200);
    });

    it('when Remove is posted from the profile, then the passkey goes (notice); an old sign-in is sent to sign in again first', async () => {
      const { user, token } = await createUserWithToken('author');
      const authenticator = new SoftAuthenticator(ORIGIN);
      const creation = (await request(app).post('/auth/passkeys/register/options').set('Authorization', `Bearer ${token}`).expect(200)).body;
      const { passkey } = (await request(app).post('/auth/passkeys/register/verify').set('Authorization', `Bearer ${token}`).send({ response: authenticator.create(creation), name: '<b>Phone</b>' }).expect(201)).body;
      const page = await sessionFor(user as User);
      const profile = await request(app).get('/admin/profile/security').set('Cookie', page.cookie).expect(200);
      assert.match(profile.text, /&lt;b&gt;Phone&lt;\/b&gt;/, 'the name is escaped');
      assert.match(profile.text, new RegExp(`action="/admin/profile/passkeys/${passkey.id}/remove"`));

      const old = await tokenFor(user, { sid: crypto.randomUUID(), authTime: Math.floor(Date.now() / 1000) - 11 * 60 });
      const stale = await request(app).post(`/admin/profile/passkeys/${passkey.id}/remove`).set('Cookie', page.cookie.replace(/auth_token=[^;]+/, `auth_token=${old}`)).type('form').send(formBody({ _csrf: page.csrf }));
      assert.equal(stale.status, 303);
      assert.equal(location(stale), '/auth/step-up?redirect=%2Fadmin%2Fprofile%2Fsecurity');
      assert.equal(await ctx().models.Passkey.count({ where: { userId: user.id } }), 1);

      const removed = await request(app).post(`/admin/profile/passkeys/${passkey.id}/remove`).set('Cookie', page.cookie).type('form').send(formBody({ _csrf: page.csrf }));
      assert.equal(removed.status, 303);
      assert.equal(location(removed), '/admin/profile/security?notice=passkey_removed');
      assert.equal(await ctx().models.Passkey.count({ where: { userId: user.id } }), 0);
      const again = await request(app).post(`/admin/profile/passkeys/${passkey.id}/remove`).set('Cookie', page.cookie).type('form').send(formBody({ _csrf: page.csrf }));
      assert.equal(location(again), '/admin/profile/security?notice=passkey_gone');
    });
  });
});
