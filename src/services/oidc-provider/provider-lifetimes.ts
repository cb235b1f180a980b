/** How long each of the provider's artifacts lives, in seconds (oidc-provider's `ttl` option). */
export const TTL = {
  AuthorizationCode: 60,
  IdToken: 3600,
  AccessToken: 3600,
  ClientCredentials: 600,
  Interaction: 3600,
  Grant: 14 * 86_400,
  Session: 14 * 86_400,
  RefreshToken: 14 * 86_400,
};

/**
 * How long an instance may go on signing with a replaced key after a rotation elsewhere: it reads the key set again
 * when the shared version moves, and at the latest when its copy is this old (a store write that was lost).
 */
export const KEY_SET_MAX_AGE_MS = 60_000;

/**
 * How long a replaced key stays in the JWKS and verifying, counted from its rotation: the longest-lived token it
 * can have signed (ID tokens, and access tokens whatever the grant: the resource server's TTL applies to
 * client_credentials too, see provider.ts), signed as late as an instance that had not yet seen the rotation
 * could, plus a grace for verifiers' clocks (oidc-provider's own clockTolerance is 15 s; other JOSE libraries
 * default to 0-60 s). Refresh tokens are opaque rows, not signed, so no key need outlive them.
 */
export const REPLACED_KEY_LIFETIME_SECONDS = Math.max(TTL.IdToken, TTL.AccessToken) + KEY_SET_MAX_AGE_MS / 1000 + 60;
