import { samlUrls } from './saml-metadata';

/** The service's side of a provider (CONTRACT 15): what an admin copies into the identity provider's settings. */
export function ssoUrls(baseUrl: string, slug: string) {
  const start = `${baseUrl}/auth/sso/${slug}`;
  const saml = samlUrls(baseUrl, slug);
  return { start, oidcRedirectUri: `${start}/callback`, samlEntityId: saml.entityId, samlAcs: saml.acs, samlMetadata: saml.metadata };
}
