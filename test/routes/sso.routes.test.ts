import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request, { type Response } from 'supertest';
import { buildApp, ctx } from '../support/context';
import { cookieHeader, makeUser, payloadOf, setCookies, tokenFor, PASSWORD } from '../support/auth';
import { enrolTotp } from '../support/totp';
import { configureOtp } from '../support/otp';
import { closedPort } from '../support/ports';
import { IDP_CLIENT, OidcIdp, type IdpPerson } from '../support/oidc-idp';
import { noticeOf } from '../../src/http/notices';

const BASE = 'http://localhost:3000';
const SLUG = 'acme';
const DOMAIN = 'acme.test';

let idp: OidcIdp;
let adminToken: string;
let providerId: string;

function emailAt(domain = DOMAIN, label = 'person'): string {
  return `${label}-${crypto.randomBytes(5).toString('hex')}@${domain}`;
}

function personFor(email: string): IdpPerson {
  return { sub: `sub-${crypto.randomBytes(6).toString('hex')}`, email, email_verified: true, given_name: 'Ada', family_name: 'Lovelace' };
}

/** A throwaway IdP signing certificate (PEM), made by openssl as an IdP's admin would. */
function selfSignedCertificate(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sso-cert-'));
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=idp.samly.test', '-days', '1', '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem')], { stdio: 'ignore' });
    return fs.readFileSync(path.join(dir, 'cert.pem'), 'utf8');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function oidcBody(overrides: Record<string, unknown> = {}) {
  return {
    slug: SLUG,
    name: 'Acme Corp',
    protocol: 'oidc',
    domains: [DOMAIN],
    oidc: { issuer: idp.issuer, clientId: IDP_CLIENT.clientId, clientSecret: IDP_CLIENT.clientSecret },
    ...overrides,
  };
}

async function activity(action: string, where: Record<string, unknown> = {}) {
  return ctx().models.ActivityLog.findAll({ where: { action, ...where }, order: [['id', 'ASC']] });
}

function noticeCode(res: Response): string | null {
  return new URL(res.headers.location as string, BASE).searchParams.get('notice');
}

/** Starts at the service, signs in at the IdP as `person`, and brings the browser back to the callback (with its cookies). */
async function startAndAuthorize(person: IdpPerson, startPath = `/auth/sso/${SLUG}`): Promise<{ callback: string; cookies: string }> {
  idp.as(person);
  const start = await request(ctx().app).get(startPath).expect(302);
  assert.ok((start.headers.location as string).startsWith(`${idp.issuer}/auth?`), start.headers.location);
  const back = new URL(await idp.authorize(start.headers.location as string));
  assert.equal(back.origin, BASE);
  return { callback: back.pathname + back.search, cookies: cookieHeader(start) };
}

async function signInThroughIdp(person: IdpPerson): Promise<Response> {
  const { callback, cookies } = await startAndAuthorize(person);
  return request(ctx().app).get(callback).set('Cookie', cookies);
}

async function setProvider(changes: Record<string, unknown>): Promise<void> {
  await request(ctx().app).patch(`/api/sso/providers/${providerId}`).set('Authorization', `Bearer ${adminToken}`).send(changes).expect(200);
}

describe('Single sign-on (CONTRACT 15)', () => {
  before(async () => {
    idp = new OidcIdp();
    await idp.start([`${BASE}/auth/sso/${SLUG}/callback`]);
    adminToken = await tokenFor(await makeUser({ role: 'admin' }));
  });
  after(async () => {
    const { models } = ctx();
    await models.SsoDomain.destroy({ where: {} });
    await models.SsoProvider.destroy({ where: {} });
    await idp.stop();
  });

  describe('providers API', () => {
    it('when an admin adds an OIDC provider, then the issuer is discovered, the secret sealed and never shown back', async () => {
      const res = await request(ctx().app).post('/api/sso/providers').set('Authorization', `Bearer ${adminToken}`).send(oidcBody({ domains: ['ACME.test', 'acme.test'] })).expect(201);
      const { provider } = res.body;
      providerId = provider.id;
      assert.equal(provider.slug, SLUG);
      assert.deepEqual(provider.domains, [DOMAIN]);
      assert.equal(provider.defaultRole, 'viewer');
      assert.equal(provider.enforce, false);
      assert.equal(provider.autoCreate, false);
      assert.deepEqual(provider.oidc, { issuer: idp.issuer, clientId: IDP_CLIENT.clientId, scopes: ['openid', 'email', 'profile'], clientSecretSet: true, redirectUri: `${BASE}/auth/sso/${SLUG}/callback` });
      assert.equal(provider.saml, null);
      assert.ok(!JSON.stringify(res.body).includes(IDP_CLIENT.clientSecret));
      const row = await ctx().models.SsoProvider.findByPk(provider.id, { rejectOnEmpty: true });
      assert.ok(row.oidcClientSecretSealed && !row.oidcClientSecretSealed.includes(IDP_CLIENT.clientSecret));
      const list = await request(ctx().app).get('/api/sso/providers').set('Authorization', `Bearer ${adminToken}`).expect(200);
      assert.deepEqual(list.body.providers.map((p: { slug: string }) => p.slug), [SLUG]);
      assert.ok(!JSON.stringify(list.body).includes(IDP_CLIENT.clientSecret));
      assert.equal((await activity('sso_provider.created')).filter((row) => (row.details as Record<string, unknown>).slug === SLUG).length, 1);
    });

    it('when the slug or a domain is taken, then 409 and nothing is written', async () => {
      const taken = await request(ctx().app).post('/api/sso/providers').set('Authorization', `Bearer ${adminToken}`).send(oidcBody({ slug: 'other', domains: ['other.test', DOMAIN] })).expect(409);
      assert.match(taken.body.error, /acme\.test already belongs/);
      assert.equal(await ctx().models.SsoProvider.count({ where: { slug: 'other' } }), 0);
      assert.equal(await ctx().models.SsoDomain.count({ where: { domain: 'other.test' } }), 0);
      await request(ctx().app).post('/api/sso/providers').set('Authorization', `Bearer ${adminToken}`).send(oidcBody({ domains: ['fresh.test'] })).expect(409);
    });

    it('when the issuer cannot be discovered or is private without ALLOW_PRIVATE_OUTBOUND, then 400 naming oidc.issuer', async () => {
      const nowhere = await request(ctx().app).post('/api/sso/providers').set('Authorization', `Bearer ${adminToken}`)
        .send(oidcBody({ slug: 'nowhere', domains: ['nowhere.test'], oidc: { issuer: `${idp.issuer}/nothing-here`, clientId: 'x', clientSecret: 'y' } })).expect(400);
      assert.match(nowhere.body.errors['oidc.issuer'], /could not be discovered/);
      const strict = buildApp({ env: { ALLOW_PRIVATE_OUTBOUND: undefined } });
      const refused = await request(strict).post('/api/sso/providers').set('Authorization', `Bearer ${adminToken}`).send(oidcBody({ slug: 'private', domains: ['private.test'] })).expect(400);
      assert.match(refused.body.errors['oidc.issuer'], /loopback, private/);
      assert.equal(await ctx().models.SsoProvider.count({ where: { slug: ['nowhere', 'private'] } }), 0);
    });

    it('when the input is malformed, then 400 naming the fields', async () => {
      const res = await request(ctx().app).post('/api/sso/providers').set('Authorization', `Bearer ${adminToken}`)
        .send({ slug: 'Bad Slug!', name: '', protocol: 'oidc', domains: ['not a domain'] }).expect(400);
      assert.ok(res.body.errors.slug && res.body.errors.name && res.body.errors['domains.0'] && res.body.errors.oidc, JSON.stringify(res.body));
    });

    it('when a SAML provider is given explicit settings, then the certificate is shown only as a fingerprint, with the SP URLs', async () => {
      await request(ctx().app).post('/api/sso/providers').set('Authorization', `Bearer ${adminToken}`)
        .send({ slug: 'samly', name: 'Samly', protocol: 'saml', domains: ['samly.test'], saml: { entryPoint: 'https://idp.samly.test/sso', idpEntityId: 'https://idp.samly.test', certificate: 'not a certificate' } })
        .expect(400, { error: 'Validation failed', errors: { 'saml.certificate': 'must be an X.509 certificate (PEM or base64)' } });
      const certificate = selfSignedCertificate().replace(/-----[A-Z ]+-----|\s/g, '');
      const res = await request(ctx().app).post('/api/sso/providers').set('Authorization', `Bearer ${adminToken}`)
        .send({ slug: 'samly', name: 'Samly', protocol: 'saml', domains: ['samly.test'], saml: { entryPoint: 'https://idp.samly.test/sso', idpEntityId: 'https://idp.samly.test', certificate } }).expect(201);
      const { saml } = res.body.provider;
      assert.equal(saml.certificateFingerprint, new crypto.X509Certificate(`-----BEGIN CERTIFICATE-----\n${certificate}\n-----END CERTIFICATE-----`).fingerprint256);
      assert.equal(saml.entityId, `${BASE}/auth/sso/samly`);
      assert.equal(saml.acs, `${BASE}/auth/sso/samly/acs`);
      assert.equal(saml.metadataUrl, `${BASE}/auth/sso/samly/metadata`);
      assert.ok(!JSON.stringify(res.body).includes(certificate));
      await request(ctx().app).delete(`/api/sso/providers/${res.body.provider.id}`).set('Authorization', `Bearer ${adminToken}`).expect(204);
      assert.equal(await ctx().models.SsoDomain.count({ where: { domain: 'samly.test' } }), 0);
    });

    it('when someone without manage:settings asks, then 403; an admin without a recent sign-in cannot change a provider', async () => {
      const editor = await tokenFor(await makeUser({ role: 'editor' }));
      await request(ctx().app).get('/api/sso/providers').set('Authorization', `Bearer ${editor}`).expect(403);
      const stale = await tokenFor(await makeUser({ role: 'admin' }), { sid: crypto.randomUUID(), authTime: Math.floor(Date.now() / 1000) - 3600 });
      const res = await request(ctx().app).patch(`/api/sso/providers/${providerId}`).set('Authorization', `Bearer ${stale}`).send({ name: 'Stolen' }).expect(403);
      assert.equal(res.body.stepUp, true);
    });
  });

  describe('starting', () => {
    it('when POST /auth/sso names an address of an owned domain, then JSON gets the start URL and a form a 302', async () => {
      const json = await request(ctx().app).post('/auth/sso').send({ email: emailAt() }).expect(200);
      assert.equal(json.body.redirectUrl, `${BASE}/auth/sso/${SLUG}`);
      assert.equal((await request(ctx().app).post('/auth/sso').send({ email: emailAt(), redirect: 'https://evil.test/' }).expect(200)).body.redirectUrl, `${BASE}/auth/sso/${SLUG}`);
      // A form goes on by a page of ours (CSP form-action would refuse a redirect chain from a form post to the IdP).
      const form = await request(ctx().app).post('/auth/sso').type('form').set('Accept', 'text/html').send({ email: emailAt(DOMAIN.toUpperCase()), redirect: '/admin/profile' }).expect(200);
      assert.match(form.text, /<a href="\/auth\/sso\/acme\?redirect=%2Fadmin%2Fprofile">Continue to single sign-on<\/a>/);
    });

    it('when no provider owns the domain, then 404 with the contract message (the page: back to sign-in saying so)', async () => {
      const res = await request(ctx().app).post('/auth/sso').send({ email: emailAt('elsewhere.test') }).expect(404);
      assert.deepEqual(res.body, { error: 'No single sign-on for this address' });
      const page = await request(ctx().app).post('/auth/sso').type('form').send({ email: emailAt('elsewhere.test') }).expect(302);
      assert.equal(noticeOf({ notice: noticeCode(page) }).error, 'No single sign-on for this address');
    });

    it('when a provider exists, then the sign-in page offers single sign-on, asking the email', async () => {
      const page = await request(ctx().app).get('/auth/login').expect(200);
      assert.match(page.text, /<form method="post" action="\/auth\/sso"/);
      assert.match(page.text, />Sign in with single sign-on</);
    });

    it('when GET /auth/sso/:slug starts, then the provider gets state, nonce and an S256 PKCE challenge', async () => {
      const res = await request(ctx().app).get(`/auth/sso/${SLUG}`).expect(302);
      const url = new URL(res.headers.location as string);
      for (const name of ['state', 'nonce', 'code_challenge']) assert.ok(url.searchParams.get(name), name);
      assert.equal(url.searchParams.get('code_challenge_method'), 'S256');
      assert.equal(url.searchParams.get('redirect_uri'), `${BASE}/auth/sso/${SLUG}/callback`);
      await request(ctx().app).get('/auth/sso/unknown').expect(404);
    });
  });

  describe('signing in with OpenID Connect', () => {
    it('when an existing account signs in, then it is linked, verified, and gets a session of method sso', async () => {
      const email = emailAt();
      const user = await makeUser({ email, emailVerified: false, selfRegistered: false });
      const person = personFor(email);
      const res = await signInThroughIdp(person);
      assert.equal(res.status, 302, res.text);
      assert.equal(res.headers.location, '/admin');
      const token = setCookies(res).auth_token.value;
      assert.equal(payloadOf(token).sub, user.id);
      const session = await ctx().models.Session.findByPk(payloadOf(token).sid as string, { rejectOnEmpty: true });
      assert.equal(session.method, 'sso');
      const link = await ctx().models.OAuthAccount.findOne({ where: { userId: user.id, provider: `sso:${SLUG}` }, rejectOnEmpty: true });
      assert.equal(link.providerAccountId, person.sub);
      assert.ok((await ctx().models.User.findByPk(user.id, { rejectOnEmpty: true })).emailVerifiedAt);
      assert.equal((await activity('sso.account_linked', { userId: user.id })).length, 1);
      assert.equal((await activity('sso.sign_in', { userId: user.id })).length, 1);

      // The second time the link decides, whatever address the provider asserts now.
      const again = await signInThroughIdp({ ...person, email: emailAt() });
      assert.equal(payloadOf(setCookies(again).auth_token.value).sub, user.id);
      assert.equal((await activity('sso.account_linked', { userId: user.id })).length, 1);
    });

    it('when a self-registered, unverified account with a password is claimed, then the squatter password is cleared', async () => {
      const email = emailAt();
      const squatted = await makeUser({ email, emailVerified: false, selfRegistered: true });
      const res = await signInThroughIdp(personFor(email));
      assert.equal(payloadOf(setCookies(res).auth_token.value).sub, squatted.id);
      const after = await ctx().models.User.findByPk(squatted.id, { rejectOnEmpty: true });
      assert.equal(after.passwordHash, null);
      assert.equal((await activity('user.unverified_password_cleared', { userId: squatted.id })).length, 1);
    });

    it('when no account exists and the provider auto-creates, then one is made with the default role', async () => {
      await setProvider({ autoCreate: true, defaultRole: 'author' });
      try {
        const email = emailAt();
        const res = await signInThroughIdp(personFor(email));
        assert.equal(res.status, 302);
        const user = await ctx().models.User.findOne({ where: { email }, rejectOnEmpty: true });
        assert.equal(user.role, 'author');
        assert.equal(user.firstName, 'Ada');
        assert.ok(user.emailVerifiedAt);
        assert.equal(payloadOf(setCookies(res).auth_token.value).sub, user.id);
      } finally {
        await setProvider({ autoCreate: false, defaultRole: 'viewer' });
      }
    });

    it('when two first sign-ins of one person race, then one account and one link come of them, and both sign in to it', async () => {
      await setProvider({ autoCreate: true });
      try {
        const email = emailAt();
        const person = personFor(email);
        const flows = [await startAndAuthorize(person), await startAndAuthorize(person)];
        const answers = await Promise.all(flows.map((flow) => request(ctx().app).get(flow.callback).set('Cookie', flow.cookies)));
        const users = await ctx().models.User.findAll({ where: { email } });
        assert.equal(users.length, 1);
        assert.equal(await ctx().models.OAuthAccount.count({ where: { provider: `sso:${SLUG}`, providerAccountId: person.sub } }), 1);
        for (const answer of answers) assert.equal(payloadOf(setCookies(answer).auth_token.value).sub, users[0].id);
      } finally {
        await setProvider({ autoCreate: false });
      }
    });

    it('when no account exists and the provider does not auto-create, then refused with no session', async () => {
      const email = emailAt();
      const res = await signInThroughIdp(personFor(email));
      assert.equal(res.status, 302);
      assert.equal(noticeCode(res), 'sso_no_account');
      assert.ok(noticeOf({ notice: 'sso_no_account' }).error);
      assert.equal(setCookies(res).auth_token, undefined);
      assert.equal(await ctx().models.User.count({ where: { email } }), 0);
      const [row] = await activity('sso.refused', { email: null });
      assert.ok(row);
      assert.ok((await activity('sso.refused')).some((entry) => (entry.details as Record<string, unknown>).reason === 'no_account'));
    });

    it('when the provider asserts an address of a domain it does not own, then refused (it never vouches for other domains)', async () => {
      const email = emailAt('victim.test');
      const victim = await makeUser({ email });
      const res = await signInThroughIdp(personFor(email));
      assert.equal(noticeCode(res), 'sso_wrong_domain');
      assert.equal(setCookies(res).auth_token, undefined);
      assert.equal(await ctx().models.OAuthAccount.count({ where: { userId: victim.id } }), 0);
    });

    it('when the account is deactivated, then refused', async () => {
      const email = emailAt();
      await makeUser({ email, active: false });
      const res = await signInThroughIdp(personFor(email));
      assert.equal(noticeCode(res), 'sso_inactive');
      assert.equal(setCookies(res).auth_token, undefined);
    });

    it('when the callback is replayed, comes back with another state, or in another browser, then refused', async () => {
      const email = emailAt();
      await makeUser({ email });
      const first = await startAndAuthorize(personFor(email));
      await request(ctx().app).get(first.callback).set('Cookie', first.cookies).expect(302);
      const replay = await request(ctx().app).get(first.callback).set('Cookie', first.cookies).expect(302);
      assert.equal(noticeCode(replay), 'sso_failed');

      const second = await startAndAuthorize(personFor(email));
      const forged = second.callback.replace(/state=[^&]+/, 'state=forged-state');
      assert.equal(noticeCode(await request(ctx().app).get(forged).set('Cookie', second.cookies).expect(302)), 'sso_failed');

      const third = await startAndAuthorize(personFor(email));
      const elsewhere = await request(ctx().app).get(third.callback).expect(302);
      assert.equal(noticeCode(elsewhere), 'sso_failed');
      assert.equal(setCookies(elsewhere).auth_token, undefined);
    });

    it('when the ID token carries another nonce than the flow began with, then refused', async () => {
      const email = emailAt();
      await makeUser({ email });
      const { callback, cookies } = await startAndAuthorize(personFor(email));
      const state = new URL(callback, BASE).searchParams.get('state') as string;
      const key = `sso:oidc:${state}`;
      const flow = JSON.parse((await ctx().store.get(key)) as string);
      flow.checks.nonce = 'another-nonce';
      await ctx().store.set(key, JSON.stringify(flow), 600);
      const res = await request(ctx().app).get(callback).set('Cookie', cookies).expect(302);
      assert.equal(noticeCode(res), 'sso_failed');
      assert.equal(setCookies(res).auth_token, undefined);
      const rows = await activity('sso.refused');
      assert.match(String((rows.at(-1)?.details as Record<string, unknown>).detail), /nonce mismatch/);
    });

    it('when another instance changes the provider, then this one signs in with the new settings at once', async () => {
      const email = emailAt();
      const user = await makeUser({ email });
      const person = personFor(email);
      assert.equal(payloadOf(setCookies(await signInThroughIdp(person)).auth_token.value).sub, user.id);
      const other = buildApp();
      const oidc = { issuer: idp.issuer, clientId: IDP_CLIENT.clientId };
      const patch = (clientSecret: string) => request(other).patch(`/api/sso/providers/${providerId}`).set('Authorization', `Bearer ${adminToken}`).send({ oidc: { ...oidc, clientSecret } }).expect(200);
      await patch('not-the-secret');
      try {
        const refused = await signInThroughIdp(person);
        assert.equal(noticeCode(refused), 'sso_failed', 'the code exchange used the secret saved on the other instance');
      } finally {
        await patch(IDP_CLIENT.clientSecret);
      }
      assert.equal(payloadOf(setCookies(await signInThroughIdp(person)).auth_token.value).sub, user.id);
    });

    it('when the issuer stops answering, then starting goes back to the sign-in page saying the provider is unavailable', async () => {
      const row = await ctx().models.SsoProvider.findByPk(providerId, { rejectOnEmpty: true });
      const issuer = row.oidcIssuer;
      await row.update({ oidcIssuer: `http://127.0.0.1:${await closedPort()}` });
      try {
        const res = await request(ctx().app).get(`/auth/sso/${SLUG}`).expect(302);
        assert.equal(noticeCode(res), 'sso_unavailable');
        assert.equal(setCookies(res).auth_token, undefined);
      } finally {
        await row.update({ oidcIssuer: issuer });
      }
    });

    it('when the start named a same-origin page, then the sign-in lands there; another site is ignored', async () => {
      const email = emailAt();
      await makeUser({ email });
      const person = personFor(email);
      const asked = await startAndAuthorize(person, `/auth/sso/${SLUG}?redirect=${encodeURIComponent('/admin/profile')}`);
      const landed = await request(ctx().app).get(asked.callback).set('Cookie', asked.cookies).expect(302);
      assert.equal(landed.headers.location, '/admin/profile');
      const offsite = await startAndAuthorize(person, `/auth/sso/${SLUG}?redirect=${encodeURIComponent('https://evil.test/')}`);
      assert.equal((await request(ctx().app).get(offsite.callback).set('Cookie', offsite.cookies).expect(302)).headers.location, '/admin');
    });

    it('when the user has a second factor, then the sign-in goes to the second step with no session yet', async () => {
      const email = emailAt();
      const user = await makeUser({ email });
      await enrolTotp(ctx().app, await tokenFor(user));
      const sessionsBefore = await ctx().models.Session.count({ where: { userId: user.id } });
      const res = await signInThroughIdp(personFor(email));
      assert.equal(res.status, 302);
      assert.equal(res.headers.location, '/auth/2fa');
      assert.equal(setCookies(res).auth_token, undefined);
      assert.equal(await ctx().models.Session.count({ where: { userId: user.id } }), sessionsBefore);
    });
  });

  describe('enforcement', () => {
    before(async () => setProvider({ enforce: true }));
    after(async () => setProvider({ enforce: false }));

    it('when a password sign-in names an enforced domain, then 403 naming the provider, for known and unknown addresses alike', async () => {
      const email = emailAt();
      await makeUser({ email });
      const known = await request(ctx().app).post('/auth/login').send({ email, password: PASSWORD }).expect(403);
      assert.deepEqual(known.body, { error: 'Single sign-on required', sso: SLUG });
      const unknown = await request(ctx().app).post('/auth/login').send({ email: emailAt(), password: PASSWORD }).expect(403);
      assert.deepEqual(unknown.body, known.body);
      const page = await request(ctx().app).post('/auth/login').type('form').set('Accept', 'text/html').send({ email, password: PASSWORD }).expect(200);
      assert.match(page.text, /<a href="\/auth\/sso\/acme">Continue to single sign-on<\/a>/);
    });

    it('when a one-time code is asked for or verified for an enforced domain, then 403 before any code is made', async () => {
      await configureOtp(ctx().app, { Authorization: `Bearer ${adminToken}` });
      try {
        const email = emailAt();
        const asked = await request(ctx().app).post('/auth/otp/request').send({ email }).expect(403);
        assert.deepEqual(asked.body, { error: 'Single sign-on required', sso: SLUG });
        assert.equal(await ctx().models.OtpCode.count({ where: { userEmail: email } }), 0);
        const verified = await request(ctx().app).post('/auth/otp/verify').send({ email, code: '123456' }).expect(403);
        assert.deepEqual(verified.body, asked.body);
      } finally {
        await configureOtp(ctx().app, { Authorization: `Bearer ${adminToken}` }, {}, false);
      }
    });

    it('when a magic link is asked for an enforced domain, then 403 too; other domains are untouched', async () => {
      const res = await request(ctx().app).post('/auth/sign-in/magic-link').send({ email: emailAt() }).expect(403);
      assert.deepEqual(res.body, { error: 'Single sign-on required', sso: SLUG });
      const other = await makeUser();
      await request(ctx().app).post('/auth/login').send({ email: other.email, password: PASSWORD }).expect(200);
    });
  });
});
