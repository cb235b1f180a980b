import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import request, { type Response } from 'supertest';
import { ctx } from '../support/context';
import { cookieHeader, makeUser, payloadOf, setCookies, tokenFor } from '../support/auth';
import { SamlIdp, makeSigningKey } from '../support/saml-idp';

const BASE = 'http://localhost:3000';
const SLUG = 'samlcorp';
const DOMAIN = 'samlcorp.test';

function noticeCode(res: Response): string | null {
  return new URL(res.headers.location as string, BASE).searchParams.get('notice');
}

describe('Single sign-on with SAML through the service (CONTRACT 15)', () => {
  let idp: SamlIdp;
  let spMetadata: string;

  before(async () => {
    idp = new SamlIdp('https://idp.samlcorp.test', 'https://idp.samlcorp.test/sso', await makeSigningKey('idp.samlcorp.test'));
    const admin = await tokenFor(await makeUser({ role: 'admin' }));
    const created = await request(ctx().app).post('/api/sso/providers').set('Authorization', `Bearer ${admin}`)
      .send({ slug: SLUG, name: 'SAML Corp', protocol: 'saml', domains: [DOMAIN], saml: { metadataXml: idp.metadata() } }).expect(201);
    assert.equal(created.body.provider.saml.idpEntityId, 'https://idp.samlcorp.test');
    assert.equal(created.body.provider.saml.entryPoint, 'https://idp.samlcorp.test/sso');
    const metadata = await request(ctx().app).get(`/auth/sso/${SLUG}/metadata`).expect(200);
    assert.match(metadata.headers['content-type'] as string, /xml/);
    spMetadata = metadata.text;
  });
  after(async () => {
    await ctx().models.SsoDomain.destroy({ where: {} });
    await ctx().models.SsoProvider.destroy({ where: {} });
  });

  /** Starts at the service, has the IdP answer the AuthnRequest for `email`, and posts the Response to the ACS. */
  async function signIn(email: string, overrides: Parameters<SamlIdp['respond']>[2] = {}): Promise<{ res: Response; response: string }> {
    const start = await request(ctx().app).get(`/auth/sso/${SLUG}`).expect(302);
    assert.ok((start.headers.location as string).startsWith('https://idp.samlcorp.test/sso?'));
    const authn = await idp.parseRequest(spMetadata, start.headers.location as string);
    assert.equal(authn.acs, `${BASE}/auth/sso/${SLUG}/acs`);
    const response = await idp.respond(spMetadata, authn, { nameId: email, ...overrides });
    // The flow's binding cookie (SameSite=None) comes back with the IdP's cross-site POST.
    const res = await request(ctx().app).post(`/auth/sso/${SLUG}/acs`).set('Cookie', cookieHeader(start)).type('form').send({ SAMLResponse: response });
    return { res, response };
  }

  it('when the SP metadata is asked for, then it names the entity ID and the HTTP-POST ACS', () => {
    assert.match(spMetadata, new RegExp(`entityID="${BASE}/auth/sso/${SLUG}"`));
    assert.match(spMetadata, new RegExp(`Location="${BASE}/auth/sso/${SLUG}/acs"`));
  });

  it('when an existing account signs in through the IdP, then it is linked and gets a session of method sso', async () => {
    const email = `ada-${crypto.randomBytes(4).toString('hex')}@${DOMAIN}`;
    const user = await makeUser({ email });
    const { res } = await signIn(email);
    assert.equal(res.status, 302, res.text);
    assert.equal(res.headers.location, '/admin');
    const token = setCookies(res).auth_token.value;
    assert.equal(payloadOf(token).sub, user.id);
    const session = await ctx().models.Session.findByPk(payloadOf(token).sid as string, { rejectOnEmpty: true });
    assert.equal(session.method, 'sso');
    assert.equal(await ctx().models.OAuthAccount.count({ where: { userId: user.id, provider: `sso:${SLUG}`, providerAccountId: email } }), 1);
  });

  it('when a Response is posted twice, answers no request of ours, or comes from another browser, then refused with no session', async () => {
    const email = `bo-${crypto.randomBytes(4).toString('hex')}@${DOMAIN}`;
    await makeUser({ email });
    const { res, response } = await signIn(email);
    assert.equal(res.status, 302);
    const replay = await request(ctx().app).post(`/auth/sso/${SLUG}/acs`).type('form').send({ SAMLResponse: response }).expect(302);
    assert.equal(noticeCode(replay), 'sso_failed');
    assert.equal(setCookies(replay).auth_token, undefined);
    const unsolicited = await idp.respond(spMetadata, null, { nameId: email, inResponseTo: null });
    const refused = await request(ctx().app).post(`/auth/sso/${SLUG}/acs`).type('form').send({ SAMLResponse: unsolicited }).expect(302);
    assert.equal(noticeCode(refused), 'sso_failed');
    // A response to a request this service did start, posted by another browser (login CSRF): refused.
    const start = await request(ctx().app).get(`/auth/sso/${SLUG}`).expect(302);
    const authn = await idp.parseRequest(spMetadata, start.headers.location as string);
    const elsewhere = await request(ctx().app).post(`/auth/sso/${SLUG}/acs`).type('form').send({ SAMLResponse: await idp.respond(spMetadata, authn, { nameId: email }) }).expect(302);
    assert.equal(noticeCode(elsewhere), 'sso_failed');
    assert.equal(setCookies(elsewhere).auth_token, undefined);
    const rows = await ctx().models.ActivityLog.findAll({ where: { action: 'sso.refused' }, order: [['id', 'ASC']] });
    assert.ok(rows.length >= 3);
  });

  it('when the IdP asserts an address of another domain, then refused', async () => {
    const email = `eve-${crypto.randomBytes(4).toString('hex')}@elsewhere.test`;
    await makeUser({ email });
    const { res } = await signIn(email);
    assert.equal(noticeCode(res), 'sso_wrong_domain');
    assert.equal(setCookies(res).auth_token, undefined);
  });

  describe('hostile input', () => {
    const BILLION_LAUGHS = '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;"><!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">]><samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol">&lol4;</samlp:Response>';
    const XXE = '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" ID="x" InResponseTo="y">&xxe;</samlp:Response>';

    /** A flow started as a browser would, with `SAMLResponse` posted to the ACS. */
    async function post(samlResponse: string) {
      const start = await request(ctx().app).get(`/auth/sso/${SLUG}`).expect(302);
      return request(ctx().app).post(`/auth/sso/${SLUG}/acs`).set('Cookie', cookieHeader(start)).type('form').send({ SAMLResponse: samlResponse });
    }

    it('when the Response is entity expansion (billion laughs) or an external entity (XXE), then refused with no session, never a 5xx', async () => {
      for (const xml of [BILLION_LAUGHS, XXE]) {
        const res = await post(Buffer.from(xml).toString('base64'));
        assert.equal(res.status, 302, res.text);
        assert.ok(noticeCode(res), res.headers.location as string);
        assert.equal(setCookies(res).auth_token, undefined);
        assert.doesNotMatch(res.text, /root:/);
      }
    });

    it('when the Response is 10 MB, then the body is refused (413), never read into a sign-in', async () => {
      const res = await post(Buffer.alloc(10 * 1024 * 1024, 'A').toString('base64'));
      assert.equal(res.status, 413, res.text.slice(0, 200));
    });

    it('when the metadata XML is malformed or carries entities, then adding the provider is a 400 naming it', async () => {
      const admin = await tokenFor(await makeUser({ role: 'admin' }));
      for (const metadataXml of ['<EntityDescriptor', BILLION_LAUGHS, XXE]) {
        const res = await request(ctx().app).post('/api/sso/providers').set('Authorization', `Bearer ${admin}`)
          .send({ slug: `bad${crypto.randomBytes(3).toString('hex')}`, name: 'Bad', protocol: 'saml', domains: [`bad-${crypto.randomBytes(3).toString('hex')}.test`], saml: { metadataXml } });
        assert.equal(res.status, 400, JSON.stringify(res.body));
        assert.equal(typeof res.body.error, 'string');
      }
    });
  });
});
