import crypto, { type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type * as Jose from 'jose';
import { Op } from 'sequelize';
import type { Logger } from 'pino';
import type { Config, JwtAlgorithm } from '../config/config';
import type { Models } from '../models';
import type { KeyValueStore } from '../store';
import { transactionWithRetry } from '../db/transaction-retry';
import { lazyModule } from '../util/lazy-module';
import { createSealedBox } from '../credentials/sealed-box';
import { subKey } from '../credentials/sub-keys';
import { createRawSecretTokens } from './raw-secret-tokens';
import { createSharedVersion } from '../store/shared-version';

// Only the asymmetric algorithms sign and verify through jose: under HS256 (the default) it is never loaded.
const jose = lazyModule(() => require('jose') as typeof Jose);

/** The store key every instance reads before signing: a rotation replaces it (as settings-cache's version). */
const VERSION_KEY = 'signing-keys:version';
/** A ring read this long ago is read again before it verifies, whatever the version says (a lost store write). */
const RING_MAX_AGE_MS = 60_000;
/** A token naming a kid this process does not hold reloads the ring at most this often (unknown kids are free to send). */
const UNKNOWN_KID_RELOAD_MS = 1000;

type AsymmetricAlgorithm = Exclude<JwtAlgorithm, 'HS256'>;

/** A JWS's header (base64url JSON before the first dot) or null; it only picks the key, the signature check is strict. */
function protectedHeader(token: string): { kid?: unknown; alg?: unknown } | null {
  try {
    const header: unknown = JSON.parse(Buffer.from(token.split('.', 1)[0], 'base64url').toString('utf8'));
    return typeof header === 'object' && header !== null && !Array.isArray(header) ? header : null;
  } catch {
    return null;
  }
}

/** One line each, printed when the start stops (CONTRACT 11 "bad input"); never key material. */
export const SIGNING_KEY_MESSAGES = {
  undecryptable: (kid: string) => `Signing key ${kid} cannot be decrypted with this JWT_SECRET (a corrupt row, or keys made under another secret)`,
  missing: (kid: string) => `Signing key ${kid} is missing its public or private key`,
  unusable: (kid: string, algorithm: string) => `Signing key ${kid} is not a usable ${algorithm} key`,
  rotateNeedsKeys: 'Rotation needs an asymmetric JWT_ALGORITHM (EdDSA, ES256 or RS256): HS256 signs with JWT_SECRET',
} as const;

/** A key problem found while loading: the start stops with its message; at run time the key is left out. */
export class SigningKeyError extends Error {}

/** What a listed key signs: the service's own tokens (CONTRACT 11), or the OpenID Provider's (CONTRACT 14). */
export const KEY_PURPOSES = ['tokens', 'oidc-id-tokens', 'oidc-access-tokens'] as const;

/** A key as `GET /api/settings/keys` lists it (CONTRACT 11). */
export interface SigningKeyView {
  kid: string;
  algorithm: JwtAlgorithm;
  createdAt: Date | null;
  retiresAt: Date | null;
  signing: boolean;
  signs: (typeof KEY_PURPOSES)[number];
}

interface RingKey {
  kid: string;
  algorithm: AsymmetricAlgorithm;
  createdAt: Date;
  retiresAt: Date | null;
  publicJwk: Jose.JWK;
  publicKey: KeyObject;
  privateKey: KeyObject;
}

interface Ring {
  version: string | null;
  loadedAt: number;
  keys: Map<string, RingKey>;
  /** The newest key not yet replaced, when it is of the configured algorithm; null: one is made before signing. */
  signing: RingKey | null;
}

/** What rotation needs of the security settings: how long a token signed now can still be used or refreshed. */
export interface SigningKeySettings {
  getSecuritySettings(): Promise<{ jwtExpiresIn: { seconds: number }; jwtRefreshGraceSeconds: { seconds: number } }>;
}

const KEY_TYPES: Record<AsymmetricAlgorithm, (key: KeyObject) => boolean> = {
  EdDSA: (key) => key.asymmetricKeyType === 'ed25519',
  ES256: (key) => key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1',
  RS256: (key) => key.asymmetricKeyType === 'rsa' && (key.asymmetricKeyDetails?.modulusLength ?? 0) >= 2048,
};

function generate(algorithm: AsymmetricAlgorithm): crypto.KeyPairKeyObjectResult {
  if (algorithm === 'EdDSA') return crypto.generateKeyPairSync('ed25519');
  if (algorithm === 'ES256') return crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/**
 * Token signing keys (CONTRACT 11). HS256 (the default) signs with JWT_SECRET's token-signing sub-key
 * (src/credentials/sub-keys.ts) through jsonwebtoken, under a fixed kid derived from that key. EdDSA, ES256 and RS256 sign with keys kept in the
 * database (private halves sealed under a key derived from JWT_SECRET) through jose; every instance holds
 * them in a ring read again when the store's version key changes (a rotation anywhere), so all instances
 * sign with a new key at once. A replaced key keeps verifying, and stays in the JWKS, until the last token
 * it signed is past its expiry and refresh grace. Verification pins the algorithm to the key the kid names:
 * `alg: none`, HS256 over a public key, an unknown kid or a retired key never verify.
 */
export function createSigningKeys(deps: {
  config: Pick<Config, 'jwtSecret' | 'jwtAlgorithm' | 'jwtIssuer' | 'jwtAudience'>;
  models: Models;
  store: KeyValueStore;
  settings: SigningKeySettings;
  logger: Logger;
}) {
  const { config, models, store, settings } = deps;
  const log = deps.logger.child({ component: 'signing-keys' });
  const algorithm = config.jwtAlgorithm;
  const hsKey = subKey(config.jwtSecret, 'tokenSigning');
  // Before issue 44 HS256 signed with JWT_SECRET itself: such tokens still verify, bounded (see raw-secret-tokens.ts).
  const rawSecret = createRawSecretTokens({ secret: config.jwtSecret, models });
  // Private halves at rest; the kid is the associated data, so a sealed key moved to another row does not open.
  // Its key is derived once per process, not at every key it seals or opens.
  const sealing = createSealedBox({ secret: config.jwtSecret, salt: 'auth-service', info: 'signing-keys.v1', layout: 'tag-apart' });
  const hsKid = `hs256-${crypto.createHmac('sha256', hsKey).update('kid').digest('base64url').slice(0, 16)}`;
  /** Names what decides whether a verification made earlier still holds: secret, algorithm, issuer, audience. */
  const fingerprint = crypto.hash('sha256', ['verification-cache', config.jwtSecret, algorithm, config.jwtIssuer, config.jwtAudience ?? ''].join('\0'), 'hex').slice(0, 16);
  const { current: storeVersion, bump: bumpVersion } = createSharedVersion(store, VERSION_KEY);
  let ring: Ring | null = null;
  let loading: Promise<Ring> | null = null;
  /** The first key being made in this process: concurrent first sign-ins wait for the one rotation. */
  let creating: Promise<unknown> | null = null;
  let lastUnknownReload = 0;

  /** One row as a ring key; throws SigningKeyError naming the row when it cannot be used. */
  function toRingKey(row: InstanceType<Models['SigningKey']>): RingKey {
    const alg = row.algorithm as AsymmetricAlgorithm;
    if (!row.publicJwk || !row.privateKey) throw new SigningKeyError(SIGNING_KEY_MESSAGES.missing(row.kid));
    if (!Object.hasOwn(KEY_TYPES, alg)) throw new SigningKeyError(SIGNING_KEY_MESSAGES.unusable(row.kid, row.algorithm));
    const pkcs8 = sealing.open(row.privateKey, row.kid);
    if (!pkcs8) throw new SigningKeyError(SIGNING_KEY_MESSAGES.undecryptable(row.kid));
    try {
      const privateKey = crypto.createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' });
      const publicJwk = JSON.parse(row.publicJwk) as Jose.JWK;
      const publicKey = crypto.createPublicKey({ key: publicJwk as crypto.JsonWebKey, format: 'jwk' });
      const matches = crypto.createPublicKey(privateKey).export({ format: 'der', type: 'spki' }).equals(publicKey.export({ format: 'der', type: 'spki' }));
      if (!matches || !KEY_TYPES[alg](privateKey)) throw new Error('mismatch');
      return { kid: row.kid, algorithm: alg, createdAt: row.createdAt, retiresAt: row.retiresAt, publicJwk, publicKey, privateKey };
    } catch {
      throw new SigningKeyError(SIGNING_KEY_MESSAGES.unusable(row.kid, row.algorithm));
    }
  }

  /** Reads every key still in its window. `strict` (the start): a bad row stops it; otherwise it is logged and left out. */
  async function readRing(strict: boolean): Promise<Ring> {
    // The version before the rows: a rotation that lands in between leaves a ring already stale.
    const version = await storeVersion();
    const rows = await models.SigningKey.findAll({
      where: { [Op.or]: [{ retiresAt: null }, { retiresAt: { [Op.gt]: new Date() } }] },
      order: [['createdAt', 'DESC'], ['kid', 'DESC']],
    });
    const keys = new Map<string, RingKey>();
    for (const row of rows) {
      try {
        keys.set(row.kid, toRingKey(row));
      } catch (err) {
        if (strict) throw err;
        log.error({ kid: row.kid, err: (err as Error).message }, 'signing key left out');
      }
    }
    const newest = [...keys.values()].find((key) => key.retiresAt === null) ?? null;
    return { version, loadedAt: Date.now(), keys, signing: newest?.algorithm === algorithm ? newest : null };
  }

  function reload(): Promise<Ring> {
    loading ??= readRing(false)
      .then((fresh) => (ring = fresh))
      .finally(() => {
        loading = null;
      });
    return loading;
  }

  /** The ring as of the store's version: what signs. Makes the first key when there is none of the configured algorithm. */
  async function currentRing(): Promise<Ring> {
    const version = await storeVersion();
    let current = ring && version !== null && ring.version === version && Date.now() - ring.loadedAt < RING_MAX_AGE_MS ? ring : await reload();
    if (!current.signing) {
      creating ??= rotate().finally(() => {
        creating = null;
      });
      await creating;
      current = await reload();
    }
    return current;
  }

  /** Signs the claims with the current key: the kid and algorithm in the header. */
  async function sign(claims: Record<string, unknown>): Promise<string> {
    if (algorithm === 'HS256') {
      // Recorded before the first derived signature, so no token of the derived key predates the record.
      await rawSecret.derivedKeysSince();
      return jwt.sign(claims, hsKey, { algorithm: 'HS256', keyid: hsKid });
    }
    const key = (await currentRing()).signing as RingKey;
    return new (jose().CompactSign)(Buffer.from(JSON.stringify(claims), 'utf8')).setProtectedHeader({ alg: key.algorithm, kid: key.kid, typ: 'JWT' }).sign(key.privateKey);
  }

  /** The key a kid names while it is in its window, reading the ring again when it is old or the kid is new to it. */
  async function verificationKey(kid: string): Promise<RingKey | null> {
    let current = ring && Date.now() - ring.loadedAt < RING_MAX_AGE_MS ? ring : await reload();
    if (!current.keys.has(kid) && Date.now() - lastUnknownReload >= UNKNOWN_KID_RELOAD_MS) {
      lastUnknownReload = Date.now();
      current = await reload();
    }
    const key = current.keys.get(kid);
    return key && (key.retiresAt === null || key.retiresAt.getTime() > Date.now()) ? key : null;
  }

  /** The signature checked with the algorithm pinned to the key; the payload, or null. A database failure rejects (503). */
  async function verifiedPayload(token: string): Promise<unknown> {
    const header = protectedHeader(token);
    if (!header) return null;
    if (algorithm === 'HS256') {
      if (header.kid === undefined || header.kid === rawSecret.kid) return rawSecret.payload(token);
      if (header.kid !== hsKid) return null;
      try {
        return jwt.verify(token, hsKey, { algorithms: ['HS256'], ignoreExpiration: true });
      } catch {
        return null;
      }
    }
    if (typeof header.kid !== 'string') return null;
    const key = await verificationKey(header.kid);
    if (!key || header.alg !== key.algorithm) return null;
    try {
      const { payload } = await jose().compactVerify(token, key.publicKey, { algorithms: [key.algorithm] });
      return JSON.parse(Buffer.from(payload).toString('utf8'));
    } catch {
      return null;
    }
  }

  /**
   * The payload of a token we signed: signature (pinned algorithm, live key), `iss`, `aud` when configured,
   * and `exp` unless `ignoreExpiration` (refresh, CSRF binding). Null for anything else.
   */
  async function verify(token: string, options: { ignoreExpiration: boolean }): Promise<Record<string, unknown> | null> {
    const payload = await verifiedPayload(token);
    if (typeof payload !== 'object' || payload === null) return null;
    const claims = payload as Record<string, unknown>;
    if (claims.iss !== config.jwtIssuer) return null;
    if (config.jwtAudience !== undefined && claims.aud !== config.jwtAudience) return null;
    if (typeof claims.exp !== 'number' || (!options.ignoreExpiration && nowSeconds() >= claims.exp)) return null;
    return claims;
  }

  /** The claims every token carries besides the user's: `iss`, and `aud` when configured. */
  function issuerClaims(): { iss: string; aud?: string } {
    return config.jwtAudience === undefined ? { iss: config.jwtIssuer } : { iss: config.jwtIssuer, aud: config.jwtAudience };
  }

  /**
   * A new signing key at once on every instance: the current one is given its retirement (now plus the
   * token lifetime and refresh grace, so every token it signed can still be used and refreshed), rows past
   * theirs go, and the store's version moves so every instance reads the ring before it signs again.
   */
  async function rotate(): Promise<SigningKeyView> {
    if (algorithm === 'HS256') throw new SigningKeyError(SIGNING_KEY_MESSAGES.rotateNeedsKeys);
    const { jwtExpiresIn, jwtRefreshGraceSeconds } = await settings.getSecuritySettings();
    const pair = generate(algorithm);
    const publicJwk = pair.publicKey.export({ format: 'jwk' }) as Jose.JWK;
    const kid = await jose().calculateJwkThumbprint(publicJwk);
    const pkcs8 = pair.privateKey.export({ format: 'der', type: 'pkcs8' });
    const createdAt = new Date();
    const retiresAt = new Date(createdAt.getTime() + (jwtExpiresIn.seconds + jwtRefreshGraceSeconds.seconds) * 1000);
    const sequelize = models.SigningKey.sequelize as NonNullable<typeof models.SigningKey.sequelize>;
    // The new row first, then every other signing row retired: of two rotations at once, the one committed
    // last retires the other's key, so exactly one key signs (a deadlock between them is retried).
    await transactionWithRetry(sequelize, async (transaction) => {
      await models.SigningKey.create(
        { kid, algorithm, publicJwk: JSON.stringify(publicJwk), privateKey: sealing.seal(pkcs8, kid), createdAt, retiresAt: null },
        { transaction },
      );
      await models.SigningKey.update({ retiresAt }, { where: { retiresAt: null, kid: { [Op.ne]: kid } }, transaction });
      await models.SigningKey.destroy({ where: { retiresAt: { [Op.lte]: createdAt } }, transaction });
    });
    ring = null;
    try {
      await bumpVersion();
    } catch (err) {
      log.warn({ err: (err as Error).message }, `key-value store unavailable: other instances sign with the new key within ${RING_MAX_AGE_MS / 1000} s`);
    }
    log.info({ kid, algorithm }, 'signing key rotated');
    return { kid, algorithm, createdAt, retiresAt: null, signing: true, signs: 'tokens' };
  }

  /**
   * At start: every stored key in its window must open and match its algorithm (else SigningKeyError, one
   * line), and an asymmetric algorithm gets its first key (or a key of a newly configured algorithm).
   */
  async function prepare(): Promise<void> {
    if (algorithm === 'HS256') return;
    const checked = await readRing(true);
    if (!checked.signing) await rotate();
    ring = null;
  }

  /** The keys still in their window, newest first (HS256: the one secret-derived key). */
  async function list(): Promise<SigningKeyView[]> {
    if (algorithm === 'HS256') return [{ kid: hsKid, algorithm, createdAt: null, retiresAt: null, signing: true, signs: 'tokens' }];
    const current = await currentRing();
    return [...current.keys.values()].map((key) => ({
      kid: key.kid, algorithm: key.algorithm, createdAt: key.createdAt, retiresAt: key.retiresAt, signing: key === current.signing, signs: 'tokens' as const,
    }));
  }

  /** The public keys still in their window, as a JWK Set (empty under HS256: nothing there is public). */
  async function jwks(): Promise<{ keys: Jose.JWK[] }> {
    if (algorithm === 'HS256') return { keys: [] };
    const current = await currentRing();
    return { keys: [...current.keys.values()].map((key) => ({ ...key.publicJwk, kid: key.kid, alg: key.algorithm, use: 'sig' })) };
  }

  return { algorithm, fingerprint, derivedKeysSince: rawSecret.derivedKeysSince, sign, verify, issuerClaims, rotate, prepare, list, jwks };
}

export type SigningKeys = ReturnType<typeof createSigningKeys>;
