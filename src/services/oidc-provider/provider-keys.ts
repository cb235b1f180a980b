import { promisify } from 'node:util';
import crypto from 'node:crypto';
import type { Models } from '../../models';
import { createSealedBox } from '../../credentials/sealed-box';

/** The row holding the provider's key: an artifact of the adapter's table that never expires. */
const KEY_ROW = { model: 'ProviderKey', id: 'rs256' } as const;

/** A private JWK as oidc-provider's `jwks` option takes it. */
export type PrivateJwk = crypto.JsonWebKey & { kid: string; alg: 'RS256'; use: 'sig' };

/**
 * The provider's RS256 signing key (CONTRACT 14: ID tokens verify with a key of the JWKS, RS256 whatever
 * JWT_ALGORITHM is). Made once, by whichever instance starts first (the primary key decides a race), sealed
 * under a key derived from JWT_SECRET with the kid as associated data, and read by every instance after.
 */
const generateRsaKeyPair = promisify(crypto.generateKeyPair);

export function createProviderKeys(deps: { models: Models; jwtSecret: string }) {
  const { models } = deps;
  const sealing = createSealedBox({ secret: deps.jwtSecret, salt: 'auth-service', info: 'oidc-provider-keys.v1', layout: 'tag-apart' });

  function opened(stored: string): PrivateJwk {
    const { kid, sealed } = JSON.parse(stored) as { kid: string; sealed: string };
    const pkcs8 = sealing.open(sealed, kid);
    if (!pkcs8) throw new Error(`OpenID Provider key ${kid} cannot be decrypted with this JWT_SECRET`);
    const jwk = crypto.createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' }).export({ format: 'jwk' });
    return { ...jwk, kid, alg: 'RS256', use: 'sig' };
  }

  /** The key, made and stored when there is none yet. */
  async function signingJwk(): Promise<PrivateJwk> {
    const existing = await models.OidcPayload.findOne({ where: KEY_ROW });
    if (existing) return opened(existing.payload);
    // Off the event loop: an RSA key takes tens of milliseconds or more to make.
    const pair = await generateRsaKeyPair('rsa', { modulusLength: 2048 });
    const publicJwk = pair.publicKey.export({ format: 'jwk' });
    const kid = `oidc-${crypto.hash('sha256', JSON.stringify({ e: publicJwk.e, kty: 'RSA', n: publicJwk.n }), 'base64url').slice(0, 22)}`;
    const sealed = sealing.seal(pair.privateKey.export({ format: 'der', type: 'pkcs8' }), kid);
    const [row] = await models.OidcPayload.findOrCreate({
      where: KEY_ROW,
      defaults: { ...KEY_ROW, payload: JSON.stringify({ kid, sealed }), grantId: null, uid: null, userCode: null, expiresAt: null },
    });
    return opened(row.payload);
  }

  return { signingJwk };
}

/** The public members of a private RSA JWK, for the service's JWKS. */
export function publicJwk(jwk: PrivateJwk): Record<string, unknown> {
  return { kty: jwk.kty, n: jwk.n, e: jwk.e, kid: jwk.kid, alg: jwk.alg, use: jwk.use };
}
