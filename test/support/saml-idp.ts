import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import express, { type Express } from 'express';
import passport from 'passport';
import * as samlify from 'samlify';
import * as xmllint from '@authenio/samlify-node-xmllint';
import { cookieParsing } from '../../src/http/cookie-parsing';
import { createSamlStrategy, type SamlSettings } from '../../src/sign-in/sso/saml.strategy';
import type { KeyValueStore } from '../../src/store';

// samlify refuses to parse anything until a schema validator is set: the AuthnRequests the service sends are
// checked against the SAML 2.0 schemas, so a malformed request fails the test at the IdP as it would in production.
// The validator is xmllint compiled by emscripten, which on every call (synchronously) prints a blank line and
// leaves an `uncaughtException` listener and a `drain` listener that would `process.exit()` the test run: the
// wrapper mutes the one and removes the others.
samlify.setSchemaValidator({
  validate(xml: string) {
    const listeners = { uncaught: process.listeners('uncaughtException'), drain: process.stdout.listeners('drain') };
    const log = console.log;
    console.log = () => undefined;
    try {
      return xmllint.validate(xml);
    } finally {
      console.log = log;
      for (const l of process.listeners('uncaughtException')) if (!listeners.uncaught.includes(l)) process.off('uncaughtException', l);
      for (const l of process.stdout.listeners('drain')) if (!listeners.drain.includes(l)) process.stdout.off('drain', l as () => void);
    }
  },
});

const REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
export const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
export const PERSISTENT_FORMAT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent';

/** A signing key pair with a self-signed certificate, made by openssl in a scratch directory. */
export async function makeSigningKey(commonName: string): Promise<{ privateKey: string; certificate: string }> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'saml-key-'));
  try {
    const key = path.join(dir, 'key.pem');
    const cert = path.join(dir, 'cert.pem');
    await promisify(execFile)('openssl', [
      'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-sha256', '-days', '2',
      '-subj', `/CN=${commonName}`, '-keyout', key, '-out', cert,
    ]);
    return { privateKey: await fs.readFile(key, 'utf8'), certificate: await fs.readFile(cert, 'utf8') };
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** What the IdP asserts; any field left out gets the honest value for the request being answered. */
export interface AssertionOverrides {
  inResponseTo?: string | null;
  audience?: string;
  destination?: string;
  recipient?: string;
  notBefore?: Date;
  notOnOrAfter?: Date;
  issueInstant?: Date;
  assertionId?: string;
  nameId?: string;
  nameIdFormat?: string;
  attributes?: Record<string, string>;
}

const escapeXml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);

/**
 * A real SAML 2.0 identity provider (samlify) for tests: it parses the AuthnRequest the service redirected to
 * it, and builds a signed Response (assertion signed, as the SP metadata asks) whose every checked field a test
 * may bend. The SP it answers is described by the service's own metadata XML.
 */
export class SamlIdp {
  readonly idp: samlify.IdentityProviderInstance;

  constructor(
    readonly entityId: string,
    readonly entryPoint: string,
    readonly key: { privateKey: string; certificate: string },
  ) {
    this.idp = samlify.IdentityProvider({
      entityID: entityId,
      privateKey: key.privateKey,
      signingCert: key.certificate,
      singleSignOnService: [{ Binding: REDIRECT, Location: entryPoint }],
      singleLogoutService: [{ Binding: REDIRECT, Location: `${entryPoint}/logout` }],
      nameIDFormat: [EMAIL_FORMAT],
      wantAuthnRequestsSigned: false,
    });
  }

  /** The IdP's metadata XML, as an administrator would paste it. */
  metadata(): string {
    return this.idp.getMetadata();
  }

  /** The settings the strategy needs, taken straight from this IdP. */
  settings(): { entryPoint: string; idpEntityId: string; certificate: string } {
    return { entryPoint: this.entryPoint, idpEntityId: this.entityId, certificate: this.key.certificate };
  }

  /** Reads the AuthnRequest from the URL the service redirected the browser to; its ID is what a response answers. */
  async parseRequest(spMetadataXml: string, redirectUrl: string): Promise<{ id: string; acs: string; issuer: string }> {
    const sp = samlify.ServiceProvider({ metadata: spMetadataXml });
    const url = new URL(redirectUrl);
    const { extract } = await this.idp.parseLoginRequest(sp, 'redirect', {
      query: Object.fromEntries(url.searchParams),
      octetString: url.search.slice(1),
    } as Parameters<samlify.IdentityProviderInstance['parseLoginRequest']>[2]);
    const request = extract.request as { id: string; assertionConsumerServiceUrl: string };
    return { id: request.id, acs: request.assertionConsumerServiceUrl, issuer: extract.issuer as string };
  }

  /** The base64 SAMLResponse for a request: honest unless `overrides` bends it. */
  async respond(spMetadataXml: string, request: { id: string } | null, overrides: AssertionOverrides = {}): Promise<string> {
    const sp = samlify.ServiceProvider({ metadata: spMetadataXml });
    const acs = sp.entityMeta.getAssertionConsumerService('post') as string;
    const now = overrides.issueInstant ?? new Date();
    const values = {
      ID: `_${crypto.randomUUID()}`,
      AssertionID: overrides.assertionId ?? `_${crypto.randomUUID()}`,
      IssueInstant: now.toISOString(),
      Destination: overrides.destination ?? acs,
      Recipient: overrides.recipient ?? acs,
      Audience: overrides.audience ?? sp.entityMeta.getEntityID(),
      Issuer: this.entityId,
      NotBefore: (overrides.notBefore ?? now).toISOString(),
      NotOnOrAfter: (overrides.notOnOrAfter ?? new Date(now.getTime() + 5 * 60_000)).toISOString(),
      NameIDFormat: overrides.nameIdFormat ?? EMAIL_FORMAT,
      NameID: overrides.nameId ?? 'ada@corp.example',
    };
    const inResponseTo = overrides.inResponseTo === undefined ? request?.id : overrides.inResponseTo;
    const irt = inResponseTo ? ` InResponseTo="${escapeXml(inResponseTo)}"` : '';
    const attributes = Object.entries(overrides.attributes ?? {})
      .map(([name, value]) => `<saml:Attribute Name="${escapeXml(name)}"><saml:AttributeValue xsi:type="xs:string">${escapeXml(value)}</saml:AttributeValue></saml:Attribute>`)
      .join('');
    const v = Object.fromEntries(Object.entries(values).map(([k, value]) => [k, escapeXml(value)])) as typeof values;
    const xml =
      `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${v.ID}" Version="2.0" IssueInstant="${v.IssueInstant}" Destination="${v.Destination}"${irt}>`
      + `<saml:Issuer>${v.Issuer}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>`
      + `<saml:Assertion xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xs="http://www.w3.org/2001/XMLSchema" ID="${v.AssertionID}" Version="2.0" IssueInstant="${v.IssueInstant}">`
      + `<saml:Issuer>${v.Issuer}</saml:Issuer>`
      + `<saml:Subject><saml:NameID Format="${v.NameIDFormat}">${v.NameID}</saml:NameID><saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">`
      + `<saml:SubjectConfirmationData NotOnOrAfter="${v.NotOnOrAfter}" Recipient="${v.Recipient}"${irt}/></saml:SubjectConfirmation></saml:Subject>`
      + `<saml:Conditions NotBefore="${v.NotBefore}" NotOnOrAfter="${v.NotOnOrAfter}"><saml:AudienceRestriction><saml:Audience>${v.Audience}</saml:Audience></saml:AudienceRestriction></saml:Conditions>`
      + `<saml:AuthnStatement AuthnInstant="${v.IssueInstant}" SessionIndex="${v.AssertionID}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>`
      + (attributes ? `<saml:AttributeStatement>${attributes}</saml:AttributeStatement>` : '')
      + `</saml:Assertion></samlp:Response>`;
    const result = await this.idp.createLoginResponse(sp, { extract: { request: { id: request?.id ?? '' } } } as never, 'post', {}, {
      customTagReplacement: () => ({ id: values.ID, context: xml }),
    });
    return result.context;
  }
}

/**
 * The service-provider side as the service's routes mount it (start and ACS), with the service's cookie parsing;
 * each outcome is answered as JSON (`{ identity }`, `{ refused: <code> }`, or `{ error: <name> }` with 500)
 * so a test can tell a refusal from an error.
 */
export function spApp(store: KeyValueStore, baseUrl: string, providers: Record<string, SamlSettings>): Express {
  const auth = new passport.Passport();
  auth.use(createSamlStrategy({ baseUrl, store, settingsFor: async (slug) => providers[slug] ?? null }));
  const app = express();
  app.use(cookieParsing());
  const handle: express.RequestHandler = (req, res, next) =>
    auth.authenticate('sso-saml', { session: false }, (err: unknown, identity: unknown, info: { message?: string }, status?: number) => {
      if (err) return next(err);
      if (!identity) return res.status(status ?? 401).json({ refused: info?.message });
      res.json({ identity });
    })(req, res, next);
  app.get('/auth/sso/:slug', handle);
  app.post('/auth/sso/:slug/acs', express.urlencoded({ extended: false }), handle);
  // The service's handler maps StoreUnavailableError to 503; here the name is enough to tell an error from a refusal.
  app.use(((err, _req, res, _next) => res.status(500).json({ error: (err as Error).name })) as express.ErrorRequestHandler);
  return app;
}
