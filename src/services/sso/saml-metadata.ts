import { AppError } from '../../http/app-error';
import { nodeSaml, xmlDom, xpath } from './sso-libraries';

/** What the service needs to know about one SAML identity provider (CONTRACT 15). */
export interface SamlSettings {
  entryPoint: string;
  idpEntityId: string;
  certificate: string;
}

const REDIRECT_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
const EMAIL_NAME_ID = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

export const METADATA_MESSAGES = {
  unreadable: 'The SAML metadata is not well-formed XML',
  entity: 'The SAML metadata has no EntityDescriptor with an entityID',
  idp: 'The SAML metadata describes no identity provider (IDPSSODescriptor)',
  entryPoint: 'The SAML metadata has no SingleSignOnService with the HTTP-Redirect binding',
  certificate: 'The SAML metadata has no signing certificate',
} as const;

/** The SP's own URLs for one provider slug: entity ID, Assertion Consumer Service and metadata (CONTRACT 15). */
export function samlUrls(baseUrl: string, slug: string): { entityId: string; acs: string; metadata: string } {
  const entityId = `${baseUrl.replace(/\/+$/, '')}/auth/sso/${encodeURIComponent(slug)}`;
  return { entityId, acs: `${entityId}/acs`, metadata: `${entityId}/metadata` };
}

/** The SP metadata an administrator hands to the identity provider: entity ID, ACS (HTTP-POST), signed assertions wanted. */
export function samlMetadataXml(baseUrl: string, slug: string): string {
  const { entityId, acs } = samlUrls(baseUrl, slug);
  return nodeSaml().generateServiceProviderMetadata({
    issuer: entityId,
    callbackUrl: acs,
    identifierFormat: EMAIL_NAME_ID,
    wantAssertionsSigned: true,
  });
}

/** A certificate as PEM, whatever whitespace the metadata wrapped its base64 in. */
function toPem(base64: string): string {
  const body = base64.replace(/\s+/g, '');
  return `-----BEGIN CERTIFICATE-----\n${body.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----`;
}

const select = (expression: string, node: Node) => xpath().select(expression, node) as Node[];
const attr = (node: Node | undefined, name: string) => (node as Element | undefined)?.getAttribute(name) || null;

/**
 * Reads an identity provider's metadata XML into settings: its entity ID, its HTTP-Redirect sign-on URL (where
 * the AuthnRequest goes) and its signing certificate (the first, when it lists several for a rollover).
 * Anything unusable is a 400 naming what is missing.
 */
export function parseSamlMetadata(xml: string): SamlSettings {
  let unreadable = false;
  const doc = new (xmlDom().DOMParser)({
    errorHandler: (level: string) => {
      if (level !== 'warning') unreadable = true;
    },
  }).parseFromString(xml, 'text/xml');
  if (unreadable || !doc?.documentElement) throw AppError.badRequest(METADATA_MESSAGES.unreadable);
  const entity = select("//*[local-name()='EntityDescriptor'][@entityID]", doc)[0];
  const idpEntityId = attr(entity, 'entityID');
  if (!entity || !idpEntityId) throw AppError.badRequest(METADATA_MESSAGES.entity);
  const idp = select("*[local-name()='IDPSSODescriptor']", entity)[0];
  if (!idp) throw AppError.badRequest(METADATA_MESSAGES.idp);
  const entryPoint = attr(select(`*[local-name()='SingleSignOnService'][@Binding='${REDIRECT_BINDING}']`, idp)[0], 'Location');
  if (!entryPoint || !/^https?:\/\//i.test(entryPoint)) throw AppError.badRequest(METADATA_MESSAGES.entryPoint);
  // A KeyDescriptor without `use` serves both signing and encryption (SAML metadata §2.4.1.1).
  const certificate = select(
    "*[local-name()='KeyDescriptor'][not(@use) or @use='signing']//*[local-name()='X509Certificate']",
    idp,
  )[0]?.textContent?.trim();
  if (!certificate) throw AppError.badRequest(METADATA_MESSAGES.certificate);
  return { entryPoint, idpEntityId, certificate: toPem(certificate) };
}
