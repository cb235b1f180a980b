/** The service's side of a provider (CONTRACT 15): what an admin copies into the identity provider's settings. */
export function ssoUrls(baseUrl: string, slug: string) {
  const start = `${baseUrl}/auth/sso/${slug}`;
  return {
    start,
    oidcRedirectUri: `${start}/callback`,
    samlEntityId: start,
    samlAcs: `${start}/acs`,
    samlMetadata: `${start}/metadata`,
  };
}
