import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import type { Express } from 'express';
import request from 'supertest';
import { parseSamlMetadata, samlMetadataXml, samlUrls } from '../../../src/sign-in/sso/saml.strategy';
import { AppError } from '../../../src/http/app-error';
import { MemoryStore } from '../../../src/store/memory-store';
import { RedisStore } from '../../../src/store/redis-store';
import { StoreUnavailableError } from '../../../src/store/key-value-store';
import { makeSigningKey, PERSISTENT_FORMAT, SamlIdp, spApp, type AssertionOverrides } from '../../support/saml-idp';

const BASE_URL = 'http://sp.test';
const IDP_ENTITY = 'https://idp.corp.example/saml';
const IDP_SSO = 'https://idp.corp.example/saml/sso';
const SLUG = 'acme';
const SP_METADATA = samlMetadataXml(BASE_URL, SLUG);

describe('SAML service provider strategy (sso-saml)', function () {
  this.timeout(30_000);
  let store: MemoryStore | RedisStore;
  let idp: SamlIdp;
  let app: Express;

  /** Another instance's view of the same store: its own Redis connection, or (in-process) the one map. */
  let otherInstanceStore: MemoryStore | RedisStore;
  const keyPrefix = `test:saml:${process.pid}_${crypto.randomBytes(4).toString('hex')}:`;

  before(async () => {
    if (process.env.REDIS_URL) {
      const [redis, other] = [new RedisStore(process.env.REDIS_URL, { keyPrefix }), new RedisStore(process.env.REDIS_URL, { keyPrefix })];
      await Promise.all([redis.connect(), other.connect()]);
      [store, otherInstanceStore] = [redis, other];
    } else {
      store = otherInstanceStore = new MemoryStore();
    }
    idp = new SamlIdp(IDP_ENTITY, IDP_SSO, await makeSigningKey('idp.corp.example'));
    app = spApp(store, BASE_URL, { [SLUG]: idp.settings(), other: idp.settings() });
  });

  after(async () => {
    await store.clear();
    await store.close();
    if (otherInstanceStore !== store) await otherInstanceStore.close();
  });

  type Flow = { id: string; acs: string; issuer: string; cookie: string };

  /** Starts a flow at the service as a browser would (keeping its binding cookie); the IdP reads the AuthnRequest. */
  async function start(slug = SLUG): Promise<Flow> {
    const res = await request(app).get(`/auth/sso/${slug}`).expect(302);
    assert.ok(res.headers.location.startsWith(`${IDP_SSO}?SAMLRequest=`), res.headers.location);
    const setCookie = (res.headers['set-cookie'] as unknown as string[])[0];
    const cookie = setCookie.split(';')[0];
    return { ...(await idp.parseRequest(samlMetadataXml(BASE_URL, slug), res.headers.location)), cookie };
  }

  /** The browser's auto-submitted form from the IdP to the ACS, with the cookies it holds. */
  const post = (samlResponse: string, cookie?: string, slug = SLUG) => {
    const req = request(app).post(`/auth/sso/${slug}/acs`).type('form');
    if (cookie) req.set('Cookie', cookie);
    return req.send({ SAMLResponse: samlResponse });
  };

  async function refusal(overrides: AssertionOverrides, by: SamlIdp = idp): Promise<unknown> {
    const flow = await start();
    const res = await post(await by.respond(SP_METADATA, flow, overrides), flow.cookie);
    assert.equal(res.status, 401, JSON.stringify(res.body));
    return res.body.refused;
  }

  it('when the IdP answers the request the service sent, then the identity comes back with email and names', async () => {
    const flow = await start();
    assert.equal(flow.acs, samlUrls(BASE_URL, SLUG).acs);
    assert.equal(flow.issuer, samlUrls(BASE_URL, SLUG).entityId);
    const samlResponse = await idp.respond(SP_METADATA, flow, { nameId: 'Ada@Corp.example', attributes: { firstName: 'Ada', lastName: 'Lovelace' } });
    const res = await post(samlResponse, flow.cookie).expect(200);
    assert.deepEqual(res.body.identity, { subject: 'Ada@Corp.example', email: 'ada@corp.example', firstName: 'Ada', lastName: 'Lovelace' });
  });

  it('when the flow starts on one instance and the IdP posts to another, then the other finishes it (all state in the store)', async () => {
    const flow = await start();
    const other = spApp(otherInstanceStore, BASE_URL, { [SLUG]: idp.settings() });
    const res = await request(other).post(`/auth/sso/${SLUG}/acs`).type('form').set('Cookie', flow.cookie)
      .send({ SAMLResponse: await idp.respond(SP_METADATA, flow) }).expect(200);
    assert.equal(res.body.identity.email, 'ada@corp.example');
  });

  it('when the NameID is not an email, then the email comes from the email attribute and the NameID stays the subject', async () => {
    const flow = await start();
    const res = await post(await idp.respond(SP_METADATA, flow, { nameId: 'u-4711', nameIdFormat: PERSISTENT_FORMAT, attributes: { email: 'grace@corp.example' } }), flow.cookie).expect(200);
    assert.deepEqual(res.body.identity, { subject: 'u-4711', email: 'grace@corp.example' });
  });

  it('when neither the NameID nor an attribute carries an email, then refused: no_email', async () => {
    assert.equal(await refusal({ nameId: 'u-4711', nameIdFormat: PERSISTENT_FORMAT }), 'no_email');
  });

  it('when the response is signed by another key than the configured certificate, then refused: signature', async () => {
    const impostor = new SamlIdp(IDP_ENTITY, IDP_SSO, await makeSigningKey('idp.corp.example'));
    assert.equal(await refusal({}, impostor), 'signature');
  });

  it('when the assertion is issued by another entity (even with the trusted key), then refused: issuer', async () => {
    const sibling = new SamlIdp('https://other-idp.corp.example/saml', IDP_SSO, idp.key);
    assert.equal(await refusal({}, sibling), 'issuer');
  });

  it('when the assertion was tampered with after signing, then refused: signature', async () => {
    const flow = await start();
    const xml = Buffer.from(await idp.respond(SP_METADATA, flow), 'base64').toString('utf8');
    const forged = xml.replace('>ada@corp.example<', '>mallory@corp.example<');
    assert.notEqual(forged, xml);
    assert.equal((await post(Buffer.from(forged).toString('base64'), flow.cookie).expect(401)).body.refused, 'signature');
  });

  it('when the audience is another SP, then refused: audience', async () => {
    assert.equal(await refusal({ audience: 'https://other-sp.example/saml' }), 'audience');
  });

  it('when the Response names another ACS as its Destination, then refused: destination', async () => {
    assert.equal(await refusal({ destination: 'https://other-sp.example/acs' }), 'destination');
  });

  it('when only the signed bearer confirmation names another recipient, then refused: destination', async () => {
    assert.equal(await refusal({ recipient: 'https://other-sp.example/acs' }), 'destination');
  });

  it('when InResponseTo names no request this service started, then refused: in_response_to', async () => {
    assert.equal(await refusal({ inResponseTo: `_${crypto.randomUUID()}` }), 'in_response_to');
  });

  it('when a response is posted again, then the second is refused: in_response_to (a request is answered once)', async () => {
    const flow = await start();
    const samlResponse = await idp.respond(SP_METADATA, flow);
    await post(samlResponse, flow.cookie).expect(200);
    assert.equal((await post(samlResponse, flow.cookie).expect(401)).body.refused, 'in_response_to');
  });

  it('when the same response is posted twice at once, then exactly one sign-in succeeds', async () => {
    const flow = await start();
    const samlResponse = await idp.respond(SP_METADATA, flow);
    const results = await Promise.all([post(samlResponse, flow.cookie), post(samlResponse, flow.cookie)]);
    assert.deepEqual(results.map((r) => r.status).sort(), [200, 401]);
  });

  it('when a request started for one provider is answered at another provider\'s ACS, then refused: in_response_to', async () => {
    const flow = await start(SLUG);
    const samlResponse = await idp.respond(samlMetadataXml(BASE_URL, 'other'), flow);
    assert.equal((await post(samlResponse, flow.cookie, 'other').expect(401)).body.refused, 'in_response_to');
  });

  it('when the assertion expired beyond the two-minute skew, then refused: expired', async () => {
    const issued = new Date(Date.now() - 10 * 60_000);
    assert.equal(await refusal({ issueInstant: issued, notBefore: issued, notOnOrAfter: new Date(Date.now() - 3 * 60_000) }), 'expired');
  });

  it('when the assertion is not valid yet beyond the skew, then refused: expired', async () => {
    assert.equal(await refusal({ notBefore: new Date(Date.now() + 5 * 60_000), notOnOrAfter: new Date(Date.now() + 10 * 60_000) }), 'expired');
  });

  it('when the assertion ended less than two minutes ago, then the skew still accepts it', async () => {
    const issued = new Date(Date.now() - 5 * 60_000);
    const flow = await start();
    await post(await idp.respond(SP_METADATA, flow, { issueInstant: issued, notBefore: issued, notOnOrAfter: new Date(Date.now() - 60_000) }), flow.cookie).expect(200);
  });

  it('when an assertion ID was accepted before, then a new response carrying it is refused: replay', async () => {
    const assertionId = `_${crypto.randomUUID()}`;
    const flow = await start();
    await post(await idp.respond(SP_METADATA, flow, { assertionId }), flow.cookie).expect(200);
    assert.equal(await refusal({ assertionId }), 'replay');
  });

  it('when the flow is started with a binding cookie, then it is HttpOnly, Secure and SameSite=None (the ACS POST is cross-site)', async () => {
    const res = await request(app).get(`/auth/sso/${SLUG}`).expect(302);
    const setCookie = (res.headers['set-cookie'] as unknown as string[])[0];
    assert.match(setCookie, /^sso_saml_[\w-]{16}=[\w-]{43}; Max-Age=600; Path=\/auth\/sso; Expires=[^;]+; HttpOnly; Secure; SameSite=None$/);
  });

  it('when BASE_URL is https, then the binding cookie is __Host- prefixed (Path=/), so no sibling subdomain can plant it', async () => {
    const res = await request(spApp(store, 'https://sp.test', { [SLUG]: idp.settings() })).get(`/auth/sso/${SLUG}`).expect(302);
    const setCookie = (res.headers['set-cookie'] as unknown as string[])[0];
    assert.match(setCookie, /^__Host-sso_saml_[\w-]{16}=[\w-]{43}; Max-Age=600; Path=\/; Expires=[^;]+; HttpOnly; Secure; SameSite=None$/);
  });

  it('when the response is posted from a browser that did not start the flow (login CSRF), then refused: in_response_to', async () => {
    const [nameOf, valueOf] = [(flow: Flow) => flow.cookie.split('=')[0], (flow: Flow) => flow.cookie.split('=')[1]];
    const victimsCookies: Array<(attackers: Flow, victims: Flow) => string | undefined> = [
      () => undefined,
      (_attackers, victims) => victims.cookie,
      (attackers, victims) => `${nameOf(attackers)}=${valueOf(victims)}`,
    ];
    for (const cookieOf of victimsCookies) {
      const [attackers, victims] = [await start(), await start()];
      const cookie = cookieOf(attackers, victims);
      assert.equal((await post(await idp.respond(SP_METADATA, attackers), cookie).expect(401)).body.refused, 'in_response_to', String(cookie));
    }
  });

  it('when the binding cookie of the flow is wrong, then the flow is spent and its own cookie cannot finish it either', async () => {
    const flow = await start();
    const samlResponse = await idp.respond(SP_METADATA, flow);
    await post(samlResponse, `${flow.cookie.split('=')[0]}=forged`).expect(401);
    assert.equal((await post(samlResponse, flow.cookie).expect(401)).body.refused, 'in_response_to');
  });

  it('when the ACS answers, then the flow\'s binding cookie is cleared', async () => {
    const flow = await start();
    const res = await post(await idp.respond(SP_METADATA, flow), flow.cookie).expect(200);
    assert.match((res.headers['set-cookie'] as unknown as string[])[0], new RegExp(`^${flow.cookie.split('=')[0]}=;.*Expires=Thu, 01 Jan 1970`));
  });

  it('when a response answers no request (IdP-initiated), then refused: unsolicited', async () => {
    const res = await post(await idp.respond(SP_METADATA, null, { inResponseTo: null })).expect(401);
    assert.equal(res.body.refused, 'unsolicited');
  });

  it('when the ACS is posted without a SAMLResponse or with a logout request, then refused: invalid', async () => {
    assert.equal((await request(app).post(`/auth/sso/${SLUG}/acs`).type('form').send({}).expect(401)).body.refused, 'invalid');
    assert.equal((await request(app).post(`/auth/sso/${SLUG}/acs`).type('form').send({ SAMLRequest: 'x' }).expect(401)).body.refused, 'invalid');
    assert.equal((await post('not base64 xml').expect(401)).body.refused, 'invalid');
  });

  it('when the store is unreachable, then an error (503 in the service), not a refusal and no redirect', async () => {
    const down = new MemoryStore();
    for (const method of ['get', 'set', 'setIfAbsent', 'take', 'delete'] as const) {
      down[method] = async () => { throw new StoreUnavailableError('store down'); };
    }
    const unreachable = spApp(down, BASE_URL, { [SLUG]: idp.settings() });
    const res = await request(unreachable).get(`/auth/sso/${SLUG}`).expect(500);
    assert.deepEqual(res.body, { error: 'StoreUnavailableError' });
    assert.equal(res.headers.location, undefined);
    const flow = await start();
    const acs = await request(unreachable).post(`/auth/sso/${SLUG}/acs`).type('form').set('Cookie', flow.cookie)
      .send({ SAMLResponse: await idp.respond(SP_METADATA, flow) }).expect(500);
    assert.deepEqual(acs.body, { error: 'StoreUnavailableError' });
  });

  it('when the provider is unknown, then 404 and no redirect', async () => {
    const res = await request(app).get('/auth/sso/nobody').expect(404);
    assert.equal(res.headers.location, undefined);
  });
});

describe('SAML metadata', () => {
  let idp: SamlIdp;
  before(async () => {
    idp = new SamlIdp(IDP_ENTITY, IDP_SSO, await makeSigningKey('idp.corp.example'));
  });

  it('when the IdP metadata is read, then it yields the sign-on URL, entity ID and signing certificate', () => {
    const settings = parseSamlMetadata(idp.metadata());
    assert.equal(settings.entryPoint, IDP_SSO);
    assert.equal(settings.idpEntityId, IDP_ENTITY);
    const body = (pem: string) => pem.replace(/-----[^-]+-----|\s/g, '');
    assert.equal(body(settings.certificate), body(idp.key.certificate));
  });

  for (const [what, xml, message] of [
    ['not XML', 'hello <', 'The SAML metadata is not well-formed XML'],
    ['no entity', '<foo/>', 'The SAML metadata has no EntityDescriptor with an entityID'],
    ['an SP only', SP_METADATA, 'The SAML metadata describes no identity provider (IDPSSODescriptor)'],
  ] as const) {
    it(`when the metadata is ${what}, then a 400 says what is missing`, () => {
      assert.throws(() => parseSamlMetadata(xml), (err: unknown) => err instanceof AppError && err.status === 400 && err.message === message);
    });
  }

  it('when the metadata has no signing certificate, then a 400 says so', () => {
    const stripped = idp.metadata().replace(/<(\w+:)?KeyDescriptor[\s\S]*?<\/(\w+:)?KeyDescriptor>/g, '');
    assert.throws(() => parseSamlMetadata(stripped), /no signing certificate/);
  });

  it('when the SP metadata is generated, then it names the entity ID and the HTTP-POST ACS of the provider', () => {
    const { entityId, acs } = samlUrls(`${BASE_URL}/`, SLUG);
    assert.equal(entityId, 'http://sp.test/auth/sso/acme');
    assert.equal(samlUrls(BASE_URL, SLUG).metadata, 'http://sp.test/auth/sso/acme/metadata');
    assert.match(SP_METADATA, new RegExp(`entityID="${entityId}"`));
    assert.match(SP_METADATA, new RegExp(`Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${acs}"`));
  });
});
