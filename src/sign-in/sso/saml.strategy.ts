import crypto from 'node:crypto';
import type { Request } from 'express';
import type passport from 'passport';
import { Strategy } from 'passport-strategy';
import type { Strategy as SamlStrategy, Profile, VerifiedCallback } from '@node-saml/passport-saml';
import type { KeyValueStore } from '../../store';
import { StoreUnavailableError } from '../../store/key-value-store';
import { samlUrls, type SamlSettings } from '../../services/sso/saml-metadata';
import { nodeSaml, passportSaml, xmlDom, xpath } from '../../services/sso/sso-libraries';
import { storeCacheProvider } from './saml-cache';
import { SamlBrowserBinding } from './saml-binding';

export { parseSamlMetadata, samlMetadataXml, samlUrls, type SamlSettings } from '../../services/sso/saml-metadata';

/** Who an enterprise identity provider says signed in; `subject` is the key it is known by there. */
export interface SsoIdentity {
  subject: string;
  email: string | null;
  firstName?: string;
  lastName?: string;
}

/**
 * Why a SAML response was refused (the `message` of the Passport failure). The brief's codes, plus `issuer`
 * (the assertion names another IdP), `status` (the IdP answered with an error, such as a cancelled sign-in)
 * and `invalid` (not a SAML response we can read, or a logout message on the sign-in endpoint).
 */
export type SamlRefusal =
  | 'signature' | 'audience' | 'destination' | 'in_response_to' | 'expired' | 'replay' | 'unsolicited' | 'no_email'
  | 'issuer' | 'status' | 'invalid';

/** Accepted clock difference with the IdP (CONTRACT 15: at most two minutes). */
const CLOCK_SKEW_MS = 2 * 60_000;
/** How long a started flow may take at the IdP (sign-in, second factor) before its response is refused. */
const REQUEST_TTL_MS = 10 * 60_000;

const EMAIL_NAME_ID = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
/** Attribute names IdPs use for the email and names: plain, Azure/ADFS claim URIs, and the LDAP OIDs. */
const EMAIL_ATTRIBUTES = ['email', 'mail', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress', 'urn:oid:0.9.2342.19200300.100.1.3'];
const FIRST_NAME_ATTRIBUTES = ['firstName', 'givenName', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname', 'urn:oid:2.5.4.42'];
const LAST_NAME_ATTRIBUTES = ['lastName', 'sn', 'surname', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname', 'urn:oid:2.5.4.4'];

/** node-saml reports every failed check as a plain Error; its messages are the only way to tell them apart. */
const NODE_SAML_REFUSALS: ReadonlyArray<[RegExp, SamlRefusal]> = [
  [/^InResponseTo is missing/, 'unsolicited'],
  [/InResponseTo/, 'in_response_to'],
  [/signature/i, 'signature'],
  [/audience/i, 'audience'],
  [/not yet valid|expired|No valid subject confirmation/, 'expired'],
  [/issuer/i, 'issuer'],
  [/^SAML provider returned/, 'status'],
];

class SamlRefused extends Error {
  constructor(readonly reason: SamlRefusal) {
    super(reason);
  }
}

type XmlJs = { $?: Record<string, string>; _?: string; [child: string]: unknown };
const children = (node: XmlJs | undefined, name: string) => (node?.[name] as XmlJs[] | undefined) ?? [];

function firstString(profile: Profile, names: readonly string[]): string | undefined {
  for (const name of names) {
    const value = profile[name];
    const text = Array.isArray(value) ? value[0] : value;
    if (typeof text === 'string' && text.trim()) return text.trim();
  }
  return undefined;
}

/** The email an assertion vouches for: the NameID when it is an email-format one, else the email attribute. */
function identityOf(profile: Profile): SsoIdentity {
  if (!profile.nameID) throw new SamlRefused('invalid');
  const fromNameId = profile.nameIDFormat === EMAIL_NAME_ID ? profile.nameID.trim() : undefined;
  const email = fromNameId || firstString(profile, EMAIL_ATTRIBUTES);
  if (!email || !email.includes('@')) throw new SamlRefused('no_email');
  const firstName = firstString(profile, FIRST_NAME_ATTRIBUTES);
  const lastName = firstString(profile, LAST_NAME_ATTRIBUTES);
  return { subject: profile.nameID, email: email.toLowerCase(), ...(firstName && { firstName }), ...(lastName && { lastName }) };
}

/**
 * The checks node-saml leaves to its caller, on an assertion whose signature it has verified: it comes from
 * the configured IdP, the response and the bearer confirmation were addressed to this ACS, the request it answers was started by this browser
 * (and is answered once), and the assertion was never accepted before.
 */
async function checkDelivery(
  profile: Profile,
  deps: { store: KeyValueStore; slug: string; acs: string; idpEntityId: string; startedHere: (requestId: string) => Promise<boolean> },
): Promise<void> {
  const { store, slug, acs } = deps;
  // node-saml compares the issuer of logout messages only (its `idpIssuer`), not of assertions.
  if (profile.issuer !== deps.idpEntityId) throw new SamlRefused('issuer');
  const response = new (xmlDom().DOMParser)().parseFromString(profile.getSamlResponseXml!(), 'text/xml');
  const destination = (xpath().select1("/*[local-name()='Response']/@Destination", response) as Attr | undefined)?.value;
  if (destination !== undefined && destination !== acs) throw new SamlRefused('destination');

  const assertion = (profile.getAssertion!() as { Assertion: XmlJs }).Assertion;
  const confirmations = children(children(assertion, 'Subject')[0], 'SubjectConfirmation').flatMap((c) => children(c, 'SubjectConfirmationData'));
  if (!confirmations.some((data) => data.$?.Recipient === acs)) throw new SamlRefused('destination');

  const expiries = [children(assertion, 'Conditions')[0]?.$?.NotOnOrAfter, ...confirmations.map((data) => data.$?.NotOnOrAfter)]
    .map((value) => (value ? Date.parse(value) : NaN))
    .filter((ms) => Number.isFinite(ms));
  // Without an end the assertion would have to be remembered forever to refuse its replay.
  if (expiries.length === 0) throw new SamlRefused('expired');
  const remembered = Math.ceil((Math.max(...expiries) + CLOCK_SKEW_MS - Date.now()) / 1000);
  const assertionId = assertion.$?.ID;
  if (!assertionId) throw new SamlRefused('invalid');
  // Hashed: the id is the IdP's text of any length; the key needs only to be unique for it.
  const digest = crypto.createHash('sha256').update(`${profile.issuer}\n${assertionId}`).digest('base64url');
  if (!(await deps.startedHere(String(profile.inResponseTo)))) throw new SamlRefused('in_response_to');
  if (!(await store.setIfAbsent(`sso:saml:assertion:${slug}:${digest}`, '1', Math.max(remembered, 1)))) throw new SamlRefused('replay');
}

/** A thrown check becomes a refusal code; the store being down stays an error (503), as for any sign-in. */
function refusalOf(err: unknown): SamlRefusal | null {
  if (err instanceof StoreUnavailableError) return null;
  if (err instanceof SamlRefused) return err.reason;
  const message = err instanceof Error ? err.message : '';
  return NODE_SAML_REFUSALS.find(([pattern]) => pattern.test(message))?.[1] ?? 'invalid';
}

/**
 * The SAML 2.0 service provider for enterprise sign-in (CONTRACT 15) as one Passport strategy, `sso-saml`, for
 * every provider: it reads `req.params.slug`, loads that provider's settings and builds passport-saml's strategy
 * from them for this request. A GET sends the browser to the IdP with an AuthnRequest (unsigned: the SP has no
 * key of its own; the IdP authenticates the user, not the request) and binds the flow to the browser by a
 * cookie (saml-binding.ts). The ACS POST is verified (signature by the configured certificate, InResponseTo a
 * request this browser started, audience, destination, validity window, replay)
 * and ends in `success(identity)` or `fail({ message: <SamlRefusal> })`.
 */
export function createSamlStrategy(deps: {
  baseUrl: string;
  store: KeyValueStore;
  settingsFor(slug: string): Promise<SamlSettings | null>;
}): passport.Strategy {
  class SsoSamlStrategy extends Strategy {
    readonly name = 'sso-saml';

    override authenticate(req: Request): void {
      this.run(req).catch((err: unknown) => this.error(err as Error));
    }

    private async run(req: Request): Promise<void> {
      const slug = String(req.params.slug ?? '');
      const settings = slug ? await deps.settingsFor(slug) : null;
      if (!settings) return this.fail({ message: 'unknown_provider' }, 404);
      const refuse = (reason: SamlRefusal) => this.fail({ message: reason }, 401);
      // Only the two steps of an SP-initiated sign-in: logout messages and redirect-bound responses are not ours.
      const body = req.method === 'POST' ? (req.body as Record<string, unknown> | undefined) : undefined;
      const response = body?.SAMLResponse;
      if (req.query.SAMLResponse !== undefined || req.query.SAMLRequest !== undefined || body?.SAMLRequest !== undefined
        || (req.method === 'POST' && typeof response !== 'string')) {
        return refuse('invalid');
      }

      const { entityId, acs } = samlUrls(deps.baseUrl, slug);
      const binding = new SamlBrowserBinding(deps.store, slug, deps.baseUrl, REQUEST_TTL_MS / 1000);
      // Chosen here rather than by node-saml, so the browser binding can be written before the redirect (an ACS
      // POST sends no AuthnRequest, so there it goes unused).
      const requestId = `_${crypto.randomBytes(20).toString('hex')}`;
      if (req.method !== 'POST') await binding.bind(req.res!, requestId);
      const saml = new (passportSaml().Strategy)(
        {
          name: this.name,
          callbackUrl: acs,
          issuer: entityId,
          audience: entityId,
          entryPoint: settings.entryPoint,
          idpCert: settings.certificate,
          // Either signature will do (CONTRACT 15); node-saml then insists on at least one of the two.
          wantAuthnResponseSigned: false,
          wantAssertionsSigned: false,
          validateInResponseTo: nodeSaml().ValidateInResponseTo.always,
          requestIdExpirationPeriodMs: REQUEST_TTL_MS,
          cacheProvider: storeCacheProvider(deps.store, slug, REQUEST_TTL_MS),
          acceptedClockSkewMs: CLOCK_SKEW_MS,
          generateUniqueId: () => requestId,
          // Let the IdP choose the NameID format and how it authenticates (password, MFA, Kerberos ...).
          identifierFormat: null,
          disableRequestedAuthnContext: true,
        },
        (profile: Profile | null, done: VerifiedCallback) => {
          // A null profile is a NoPassive answer: the IdP signed in nobody.
          if (!profile) return done(new SamlRefused('status'));
          checkDelivery(profile, { store: deps.store, slug, acs, idpEntityId: settings.idpEntityId, startedHere: (id) => binding.consume(req, req.res!, id) })
            .then(() => done(null, identityOf(profile) as unknown as Record<string, unknown>))
            .catch((err: unknown) => done(err as Error));
        },
        () => undefined,
      );
      // passport-saml reports every refusal through error(); turn refusals into failures here.
      const delegate = Object.assign(Object.create(saml) as SamlStrategy, {
        success: (user: unknown) => this.success(user),
        redirect: (url: string) => this.redirect(url),
        fail: () => refuse('invalid'),
        pass: () => refuse('invalid'),
        error: (err: unknown) => {
          const reason = refusalOf(err);
          if (reason) refuse(reason);
          else this.error(err as Error);
        },
      });
      // passport-saml is typed against its own copy of @types/express; the request is the same object.
      delegate.authenticate(req as unknown as Parameters<SamlStrategy['authenticate']>[0], {});
    }
  }
  return new SsoSamlStrategy() as unknown as passport.Strategy;
}
