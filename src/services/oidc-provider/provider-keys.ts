import { promisify } from 'node:util';
import crypto from 'node:crypto';
import type { Models } from '../../models';
import { createSealedBox } from '../../credentials/sealed-box';

/** The signing algorithms of the provider's keys, one key each. */
export type ProviderAlgorithm = 'RS256' | 'ES256';

/** A private JWK as oidc-provider's `jwks` option takes it. */
export type PrivateJwk = crypto.JsonWebKey & { kid: string; alg: ProviderAlgorithm; use: 'sig' };

// Off the event loop: an RSA key takes tens of milliseconds or more to make.
const generateKeyPair = promisify(crypto.generateKeyPair) as (type: 'rsa' | 'ec', options: crypto.RSAKeyPairKeyObjectOptions | crypto.ECKeyPairKeyObjectOptions) => Promise<crypto.KeyPairKeyObjectResult>;

/**
 * Each key's row: an artifact of the adapter's table that never expires. RS256 signs ID tokens (OpenID Connect
 * Core 15.1 makes it the one algorithm every client supports); ES256 signs the RFC 9068 access tokens, which
 * the JWKS lets any JOSE library verify whatever the algorithm, at a fraction of RSA-2048's signing cost.
 */
const KEYS: Record<ProviderAlgorithm, { row: { model: 'ProviderKey'; id: string }; generate: () => Promise<crypto.KeyPairKeyObjectResult> }> = {
  RS256: { row: { model: 'ProviderKey', id: 'rs256' }, generate: () => generateKeyPair('rsa', { modulusLength: 2048 }) },
  ES256: { row: { model: 'ProviderKey', id: 'es256' }, generate: () => generateKeyPair('ec', { namedCurve: 'P-256' }) },
};

/** The public members of a JWK, in RFC 7638's order (its required members): what a kid is made of and the JWKS shows. */
function thumbprintMembers(jwk: crypto.JsonWebKey): Record<string, unknown> {
  return jwk.kty === 'EC' ? { crv: jwk.crv, kty: 'EC', x: jwk.x, y: jwk.y } : { e: jwk.e, kty: 'RSA', n: jwk.n };
}

/**
 * The provider's signing keys (CONTRACT 14: tokens verify with keys of the JWKS, whatever JWT_ALGORITHM is).
 * Each is made once, by whichever instance starts first (the primary key decides a race), sealed under a key
 * derived from JWT_SECRET with the kid as associated data, and read by every instance after.
 */
export function createProviderKeys(deps: { models: Models; jwtSecret: string }) {
  const { models } = deps;
  const sealing = createSealedBox({ secret: deps.jwtSecret, salt: 'auth-service', info: 'oidc-provider-keys.v1', layout: 'tag-apart' });

  function opened(stored: string, alg: ProviderAlgorithm): PrivateJwk {
    const { kid, sealed } = JSON.parse(stored) as { kid: string; sealed: string };
    const pkcs8 = sealing.open(sealed, kid);
    if (!pkcs8) throw new Error(`OpenID Provider key ${kid} cannot be decrypted with this JWT_SECRET`);
    const jwk = crypto.createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' }).export({ format: 'jwk' });
    return { ...jwk, kid, alg, use: 'sig' };
  }

  /** The key of one algorithm, made and stored when there is none yet. */
  async function signingJwk(alg: ProviderAlgorithm): Promise<PrivateJwk> {
    const { row: where, generate } = KEYS[alg];
    const existing = await models.OidcPayload.findOne({ where });
    if (existing) return opened(existing.payload, alg);
    const pair = await generate();
    const members = thumbprintMembers(pair.publicKey.export({ format: 'jwk' }));
    const kid = `oidc-${crypto.hash('sha256', JSON.stringify(members), 'base64url').slice(0, 22)}`;
    const sealed = sealing.seal(pair.privateKey.export({ format: 'der', type: 'pkcs8' }), kid);
    const [row] = await models.OidcPayload.findOrCreate({
      where,
      defaults: { ...where, payload: JSON.stringify({ kid, sealed }), grantId: null, uid: null, userCode: null, expiresAt: null },
    });
    return opened(row.payload, alg);
  }

  /** Every key of the provider, each made when missing. */
  async function signingJwks(): Promise<Record<ProviderAlgorithm, PrivateJwk>> {
    const [rs256, es256] = await Promise.all([signingJwk('RS256'), signingJwk('ES256')]);
    return { RS256: rs256, ES256: es256 };
  }

  return { signingJwks };
}

/** The public members of a private JWK, for the service's JWKS. */
export function publicJwk(jwk: PrivateJwk): Record<string, unknown> {
  return { ...thumbprintMembers(jwk), kid: jwk.kid, alg: jwk.alg, use: jwk.use };
}

/**
 * The `jti` of an access token JWT the provider signed with one of `jwks` (the alg and kid of that key, `typ:
 * at+jwt`, a valid signature), or undefined for anything else: the adapter finds a token's record by the JWT only.
 * Any of the provider's keys, not only today's access-token key: tokens signed RS256 before access tokens moved to
 * ES256 stay valid for their hour.
 */
export function accessTokenIdReader(jwks: PrivateJwk[]): (value: string) => string | undefined {
  // JWS carries an ECDSA signature as r || s (RFC 7518 3.4), not DER; the option is ignored for RSA.
  const verifyKeys = new Map(jwks.map((jwk) => [jwk.kid, { alg: jwk.alg, key: crypto.createPublicKey({ key: publicJwk(jwk) as crypto.JsonWebKey, format: 'jwk' }), dsaEncoding: 'ieee-p1363' as const }]));
  return (value) => {
    const parts = value.split('.');
    if (parts.length !== 3) return undefined;
    try {
      const header = JSON.parse(Buffer.from(parts[0], 'base64url').toString('utf8')) as { alg?: string; typ?: string; kid?: string };
      const verifyKey = typeof header.kid === 'string' ? verifyKeys.get(header.kid) : undefined;
      if (!verifyKey || header.alg !== verifyKey.alg || header.typ !== 'at+jwt') return undefined;
      if (!crypto.verify('sha256', Buffer.from(`${parts[0]}.${parts[1]}`), verifyKey, Buffer.from(parts[2], 'base64url'))) return undefined;
      const { jti } = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8')) as { jti?: unknown };
      return typeof jti === 'string' ? jti : undefined;
    } catch {
      return undefined;
    }
  };
}
