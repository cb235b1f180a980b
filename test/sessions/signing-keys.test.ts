import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import type { Express } from 'express';
import * as jose from 'jose';
import { buildApp, ctx } from '../support/context';
import { b64url, makeUser, payloadOf, PASSWORD } from '../support/auth';
import { createUserWithToken } from '../support/users';
import { startService } from '../support/service-process';

const ASYMMETRIC = ['EdDSA', 'ES256', 'RS256'] as const;

/** Decodes a JWT's header without checking it. */
const headerOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString('utf8')) as Record<string, unknown>;

/** The private key of a stored row, opened as the service opens it (HKDF of JWT_SECRET, AES-256-GCM, kid as AAD). */
async function storedPrivateKey(kid: string): Promise<crypto.KeyObject> {
  const row = await ctx().models.SigningKey.findByPk(kid, { rejectOnEmpty: true });
  const [, iv, tag, body] = row.privateKey.split('.');
  const key = Buffer.from(crypto.hkdfSync('sha256', ctx().config.jwtSecret, 'auth-service', 'signing-keys.v1', 32));
  const decipher = crypto.createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url')).setAAD(Buffer.from(kid)).setAuthTag(Buffer.from(tag, 'base64url'));
  const der = Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]);
  return crypto.createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
}

async function signIn(on: Express, email: string): Promise<string> {
  const res = await request(on).post('/auth/login').send({ email, password: PASSWORD });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.token as string;
}

/** CONTRACT 11: asymmetric signing with keys in the database, JWKS, rotation without downtime, every refusal. */
describe('signing keys (CONTRACT 11)', function () {
  this.timeout(60_000);

  for (const algorithm of ASYMMETRIC) {
    it(`when JWT_ALGORITHM is ${algorithm}, then another service verifies a token with jose and the JWKS over HTTP alone (no secret)`, async () => {
      const app = buildApp({ env: { JWT_ALGORITHM: algorithm, JWT_AUDIENCE: 'https://api.example.test' } });
      const server = http.createServer(app).listen(0, '127.0.0.1');
      await new Promise((resolve) => server.once('listening', resolve));
      try {
        const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
        const user = await makeUser({ role: 'editor' });
        const token = await signIn(app, user.email);
        assert.equal(headerOf(token).alg, algorithm);
        assert.equal(typeof headerOf(token).kid, 'string');

        const discovery = await fetch(`${base}/.well-known/openid-configuration`);
        assert.equal(discovery.headers.get('cache-control'), 'public, max-age=300');
        const { issuer, jwks_uri: jwksUri } = (await discovery.json()) as { issuer: string; jwks_uri: string };
        assert.equal(issuer, ctx().config.jwtIssuer);
        assert.equal(jwksUri, `${ctx().config.baseUrl}/.well-known/jwks.json`);
        const jwksAnswer = await fetch(`${base}/.well-known/jwks.json`);
        assert.equal(jwksAnswer.headers.get('cache-control'), 'public, max-age=300');
        const published = (await jwksAnswer.json()) as { keys: Array<Record<string, unknown>> };
        assert.ok(published.keys.every((key) => key.d === undefined && key.p === undefined), 'no private member in the JWKS');

        // As another service would: the JWKS fetched over HTTP (jwks_uri names the public origin; here the listener).
        const jwks = jose.createRemoteJWKSet(new URL(`${base}/.well-known/jwks.json`));
        const { payload, protectedHeader } = await jose.jwtVerify(token, jwks, { issuer, audience: 'https://api.example.test', algorithms: [algorithm] });
        assert.equal(payload.sub, user.id);
        assert.equal(protectedHeader.kid, headerOf(token).kid);
        assert.equal((await request(app).get('/auth/me').set('Authorization', `Bearer ${token}`)).status, 200);
      } finally {
        await new Promise((resolve) => server.close(resolve));
      }
    });
  }

  describe('refusals (EdDSA, with an audience)', () => {
    let app: Express;
    let token: string;
    let claims: Record<string, unknown>;
    let kid: string;
    const me = (bearer: string) => request(app).get('/auth/me').set('Authorization', `Bearer ${bearer}`);

    before(async () => {
      app = buildApp({ env: { JWT_ALGORITHM: 'EdDSA', JWT_AUDIENCE: 'svc' } });
      token = await signIn(app, (await makeUser()).email);
      claims = payloadOf(token);
      kid = headerOf(token).kid as string;
    });

    it('when alg is none, then 401', async () => {
      assert.equal((await me(`${b64url({ alg: 'none', typ: 'JWT', kid })}.${b64url(claims)}.`)).status, 401);
    });

    it('when HS256 is signed with the public key (algorithm confusion), then 401', async () => {
      const { keys } = (await request(app).get('/.well-known/jwks.json')).body as { keys: jose.JWK[] };
      const jwk = keys.find((key) => key.kid === kid) as jose.JWK;
      const pem = crypto.createPublicKey({ key: jwk as crypto.JsonWebKey, format: 'jwk' }).export({ format: 'pem', type: 'spki' }) as string;
      for (const secret of [pem, JSON.stringify(jwk), Buffer.from(jwk.x as string, 'base64url')]) {
        const head = `${b64url({ alg: 'HS256', typ: 'JWT', kid })}.${b64url(claims)}`;
        assert.equal((await me(`${head}.${crypto.createHmac('sha256', secret).update(head).digest('base64url')}`)).status, 401);
      }
    });

    it('when the kid is unknown or absent, or the header names another algorithm, then 401', async () => {
      const stranger = crypto.generateKeyPairSync('ed25519').privateKey;
      const forged = await new jose.SignJWT(claims).setProtectedHeader({ alg: 'EdDSA', kid: 'not-a-key-of-ours' }).sign(stranger);
      assert.equal((await me(forged)).status, 401);
      const ours = await storedPrivateKey(kid);
      assert.equal((await me(await new jose.SignJWT(claims).setProtectedHeader({ alg: 'EdDSA' }).sign(ours))).status, 401, 'no kid');
      const es256 = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
      assert.equal((await me(await new jose.SignJWT(claims).setProtectedHeader({ alg: 'ES256', kid }).sign(es256))).status, 401, 'wrong alg');
      assert.equal((await me(await new jose.SignJWT({ ...claims, jti: crypto.randomUUID() }).setProtectedHeader({ alg: 'EdDSA', kid }).sign(ours))).status, 200, 'the control: our key, our claims');
    });

    it('when iss or aud is wrong or missing, then 401 (though signed by our key)', async () => {
      const ours = await storedPrivateKey(kid);
      const sign = (changed: Record<string, unknown>) => new jose.SignJWT(changed).setProtectedHeader({ alg: 'EdDSA', kid }).sign(ours);
      const rest: Record<string, unknown> = { ...claims, jti: crypto.randomUUID() };
      const { iss: _iss, aud: _aud, ...bare } = rest;
      const variants: Array<Record<string, unknown>> = [{ ...rest, iss: 'https://evil.example' }, { ...rest, aud: 'other' }, { ...bare, aud: 'svc' }, { ...bare, iss: rest.iss }];
      for (const changed of variants) {
        assert.equal((await me(await sign(changed))).status, 401, JSON.stringify({ iss: changed.iss, aud: changed.aud }));
      }
    });

    it('when the configuration is HS256, then a token of an asymmetric key is refused, and every token carries iss and a kid', async () => {
      const hs = buildApp();
      assert.equal((await me(token)).status, 200);
      assert.equal((await request(hs).get('/auth/me').set('Authorization', `Bearer ${token}`)).status, 401);
      const hsToken = await signIn(hs, (await makeUser()).email);
      assert.equal(headerOf(hsToken).alg, 'HS256');
      assert.match(headerOf(hsToken).kid as string, /^hs256-/);
      assert.equal(payloadOf(hsToken).iss, ctx().config.jwtIssuer);
      // No access-token key is published under HS256; only the OpenID Provider's keys are (CONTRACT 14): RS256 for
      // ID tokens, ES256 for its access tokens.
      const published = (await request(hs).get('/.well-known/jwks.json')).body.keys as Array<{ kid: string; alg: string }>;
      assert.deepEqual(published.filter((key) => !key.kid.startsWith('oidc-')), []);
      // Both algorithms; a provider key replaced earlier in the run may still be in its window beside them.
      assert.deepEqual([...new Set(published.map((key) => key.alg))].sort(), ['ES256', 'RS256']);
    });
  });

  describe('rotation across two instances sharing the database and the store', () => {
    it('when a key is rotated on one, then both sign with the new kid at once, old tokens keep working until the old key retires, then drop out', async () => {
      const env = { JWT_ALGORITHM: 'ES256' };
      const [first, second] = [buildApp({ env }), buildApp({ env })];
      const admin = await signIn(first, (await makeUser({ role: 'admin' })).email);
      const user = await makeUser();
      const before = await signIn(first, user.email);
      assert.equal((await request(second).get('/auth/me').set('Authorization', `Bearer ${before}`)).status, 200);
      const oldKid = headerOf(before).kid as string;

      const rotated = await request(first).post('/api/settings/keys/rotate').set('Authorization', `Bearer ${admin}`);
      assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
      const newKid = rotated.body.key.kid as string;
      assert.notEqual(newKid, oldKid);

      const after = await signIn(second, user.email);
      assert.equal(headerOf(after).kid, newKid, 'the other instance signs with the new key at once');
      for (const on of [first, second, buildApp({ env })]) {
        for (const token of [before, after]) assert.equal((await request(on).get('/auth/me').set('Authorization', `Bearer ${token}`)).status, 200);
      }
      const listed = await request(second).get('/api/settings/keys').set('Authorization', `Bearer ${admin}`);
      const byKid = new Map((listed.body.keys as Array<{ kid: string; signing: boolean; retiresAt: string | null }>).map((key) => [key.kid, key]));
      assert.equal(byKid.get(newKid)?.signing, true);
      assert.equal(byKid.get(oldKid)?.signing, false);
      const { jwtExpiresIn, jwtRefreshGraceSeconds } = (await request(first).get('/api/settings/security').set('Authorization', `Bearer ${admin}`)).body;
      const expected = Date.now() + (jwtExpiresIn.seconds + jwtRefreshGraceSeconds.seconds) * 1000;
      assert.ok(Math.abs(Date.parse(byKid.get(oldKid)?.retiresAt as string) - expected) < 10_000, 'retires after the lifetime and grace of its last token');
      const kids = (await request(first).get('/.well-known/jwks.json')).body.keys.map((key: { kid: string }) => key.kid);
      assert.ok(kids.includes(oldKid) && kids.includes(newKid));

      // Past its retirement, the old key verifies nothing (refresh included) and leaves the JWKS. A key retires
      // only after its last token's exp + grace, so no cached verification outlives it; retired early here,
      // the cache (whose hits do no signature work) is emptied as the passing of that time would.
      await ctx().models.SigningKey.update({ retiresAt: new Date(Date.now() - 1000) }, { where: { kid: oldKid } });
      await ctx().store.clear();
      const later = buildApp({ env });
      assert.equal((await request(later).get('/auth/me').set('Authorization', `Bearer ${before}`)).status, 401);
      assert.equal((await request(later).post('/auth/refresh').set('Authorization', `Bearer ${before}`)).status, 401);
      assert.equal((await request(later).get('/auth/me').set('Authorization', `Bearer ${after}`)).status, 200);
      assert.ok(!(await request(later).get('/.well-known/jwks.json')).body.keys.some((key: { kid: string }) => key.kid === oldKid));
    });

    it('when the first sign-ins of a new algorithm race, then one key is made and every token verifies', async () => {
      await ctx().models.SigningKey.destroy({ where: {} });
      const fresh = buildApp({ env: { JWT_ALGORITHM: 'EdDSA' } });
      const users = await Promise.all([0, 1, 2, 3, 4].map(() => makeUser()));
      const tokens = await Promise.all(users.map((user) => signIn(fresh, user.email)));
      assert.equal(await ctx().models.SigningKey.count(), 1);
      assert.equal(new Set(tokens.map((token) => headerOf(token).kid)).size, 1);
      for (const token of tokens) assert.equal((await request(fresh).get('/auth/me').set('Authorization', `Bearer ${token}`)).status, 200);
    });

    it('when rotation is asked under HS256, then only the OpenID Provider\'s keys rotate (CONTRACT 14) and the answer says so; without manage:settings, 403', async () => {
      const { token: admin } = await createUserWithToken('admin');
      const { token: editor } = await createUserWithToken('editor');
      const res = await request(ctx().app).post('/api/settings/keys/rotate').set('Authorization', `Bearer ${admin}`);
      assert.equal(res.status, 200);
      assert.equal(res.body.key, null);
      assert.match(res.body.message, /HS256/);
      assert.deepEqual(res.body.providerKeys.map((key: { algorithm: string; signs: string }) => [key.algorithm, key.signs]), [['RS256', 'oidc-id-tokens'], ['ES256', 'oidc-access-tokens']]);
      assert.equal((await request(ctx().app).get('/api/settings/keys').set('Authorization', `Bearer ${editor}`)).status, 403);
      const listed = await request(ctx().app).get('/api/settings/keys').set('Authorization', `Bearer ${admin}`);
      const signing = listed.body.keys.filter((key: { signing: boolean }) => key.signing);
      assert.deepEqual(signing.map((key: { algorithm: string; signs: string }) => [key.algorithm, key.signs]), [['HS256', 'tokens'], ['RS256', 'oidc-id-tokens'], ['ES256', 'oidc-access-tokens']]);
      assert.deepEqual(signing.slice(1).map((key: { kid: string }) => key.kid), res.body.providerKeys.map((key: { kid: string }) => key.kid));
    });
  });

  describe('bad input stops the start with one line', () => {
    it('when JWT_ALGORITHM is one the service cannot use, then the start stops naming it', async () => {
      await assert.rejects(startService({ JWT_ALGORITHM: 'HS512' }), /Invalid configuration: JWT_ALGORITHM must be one of HS256, EdDSA, ES256, RS256\n?$/);
    });

    it('when a stored key cannot be decrypted, or is missing its private key, then the start stops naming the key', async () => {
      const { models } = ctx();
      const pair = crypto.generateKeyPairSync('ed25519');
      const publicJwk = JSON.stringify(pair.publicKey.export({ format: 'jwk' }));
      const base = { algorithm: 'EdDSA', publicJwk, createdAt: new Date(), retiresAt: new Date(Date.now() + 60_000) };
      const corrupt = await models.SigningKey.create({ ...base, kid: `corrupt-${crypto.randomUUID()}`, privateKey: 'v1.AAAA.BBBB.CCCC' });
      try {
        await assert.rejects(startService({ JWT_ALGORITHM: 'EdDSA' }), new RegExp(`Start failed: Signing key ${corrupt.kid} cannot be decrypted with this JWT_SECRET[^\\n]*\\n?$`));
      } finally {
        await corrupt.destroy();
      }
      const missing = await models.SigningKey.create({ ...base, kid: `missing-${crypto.randomUUID()}`, privateKey: '' });
      try {
        await assert.rejects(startService({ JWT_ALGORITHM: 'EdDSA' }), new RegExp(`Start failed: Signing key ${missing.kid} is missing its public or private key\\n?$`));
      } finally {
        await missing.destroy();
      }
    });
  });
});
