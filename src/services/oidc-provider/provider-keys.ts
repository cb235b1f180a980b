import { promisify } from 'node:util';
import crypto from 'node:crypto';
import { Op } from 'sequelize';
import type { Logger } from 'pino';
import type { Models } from '../../models';
import type { KeyValueStore } from '../../store';
import type { SigningKeyView } from '../../sessions/signing-keys';
import { createSealedBox } from '../../credentials/sealed-box';
import { transactionWithRetry } from '../../db/transaction-retry';
import { createSharedVersion } from '../../store/shared-version';
import { KEY_SET_MAX_AGE_MS, REPLACED_KEY_LIFETIME_SECONDS } from './provider-lifetimes';

/** The signing algorithms of the provider's keys, one signing key each. */
export type ProviderAlgorithm = 'RS256' | 'ES256';

/** A private JWK as oidc-provider's `jwks` option takes it; a replaced key is marked verify-only. */
export type PrivateJwk = crypto.JsonWebKey & { kid: string; alg: ProviderAlgorithm; use: 'sig'; key_ops?: ['verify'] };

/** The keys the provider holds at one moment: one signing key per algorithm, and the replaced keys still verifying. */
export interface ProviderKeySet {
  /** Names every key and which ones sign: the provider is rebuilt when it changes. */
  id: string;
  signing: Record<ProviderAlgorithm, PrivateJwk>;
  /** Replaced keys in their window, newest first: they verify, never sign. */
  replaced: Array<{ jwk: PrivateJwk; retiresAt: Date }>;
  views: SigningKeyView[];
}

interface KeySetCopy {
  set: ProviderKeySet;
  version: string | null;
  /** Read again after this (epoch ms): the copy's age limit, or the moment the first replaced key retires. */
  validUntil: number;
}

/** What a row's payload holds: the kid, the sealed PKCS#8 key, and (rows made since rotation exists) its algorithm and birth. */
interface StoredKey {
  kid: string;
  sealed: string;
  alg?: ProviderAlgorithm;
  createdAt?: string;
}

// Off the event loop: an RSA key takes tens of milliseconds or more to make.
const generateKeyPair = promisify(crypto.generateKeyPair) as (type: 'rsa' | 'ec', options: crypto.RSAKeyPairKeyObjectOptions | crypto.ECKeyPairKeyObjectOptions) => Promise<crypto.KeyPairKeyObjectResult>;

const MODEL = 'ProviderKey';
/** The store key every instance reads before using its copy of the key set: a rotation replaces it. */
const VERSION_KEY = 'oidc-provider-keys:version';
const ALGORITHMS: ProviderAlgorithm[] = ['RS256', 'ES256'];

/**
 * Each algorithm's signing key is the row of a fixed id, in the adapter's table and never expiring: one row per
 * algorithm, so two rotations at once cannot leave two signing keys of one algorithm. A replaced key moves to a row
 * under its kid that expires when it retires. RS256 signs ID tokens (OpenID Connect Core 15.1 makes it the one
 * algorithm every client supports); ES256 signs the RFC 9068 access tokens, which the JWKS lets any JOSE library
 * verify whatever the algorithm, at a fraction of RSA-2048's signing cost.
 */
const KEYS: Record<ProviderAlgorithm, { id: string; signs: SigningKeyView['signs']; generate: () => Promise<crypto.KeyPairKeyObjectResult> }> = {
  RS256: { id: 'rs256', signs: 'oidc-id-tokens', generate: () => generateKeyPair('rsa', { modulusLength: 2048 }) },
  ES256: { id: 'es256', signs: 'oidc-access-tokens', generate: () => generateKeyPair('ec', { namedCurve: 'P-256' }) },
};

/** The public members of a JWK, in RFC 7638's order (its required members): what a kid is made of and the JWKS shows. */
function thumbprintMembers(jwk: crypto.JsonWebKey): Record<string, unknown> {
  return jwk.kty === 'EC' ? { crv: jwk.crv, kty: 'EC', x: jwk.x, y: jwk.y } : { e: jwk.e, kty: 'RSA', n: jwk.n };
}

const createdAtOf = (stored: StoredKey) => (stored.createdAt ? new Date(stored.createdAt) : null);

/**
 * The provider's signing keys (CONTRACT 14: tokens verify with keys of the JWKS, whatever JWT_ALGORITHM is), made
 * at the first start by whichever instance is first (the primary key decides a race), sealed under a key derived
 * from JWT_SECRET with the kid as associated data. Every instance holds a copy read again when the store's version
 * moves (a rotation anywhere) or the copy is a minute old, as the service's own signing keys (CONTRACT 11): so all
 * instances sign with a rotation's new keys at once, and no token request reads the table.
 */
export function createProviderKeys(deps: { models: Models; store: KeyValueStore; jwtSecret: string; logger: Logger }) {
  const { models } = deps;
  const log = deps.logger.child({ component: 'oidc-provider-keys' });
  const sealing = createSealedBox({ secret: deps.jwtSecret, salt: 'auth-service', info: 'oidc-provider-keys.v1', layout: 'tag-apart' });
  const version = createSharedVersion(deps.store, VERSION_KEY);
  let copy: KeySetCopy | null = null;
  let loading: Promise<KeySetCopy> | null = null;
  /** Opened keys by kid: a kid names one sealed key for good, so each is opened once per process. */
  let opened = new Map<string, PrivateJwk>();

  function open(stored: StoredKey, alg: ProviderAlgorithm): PrivateJwk {
    const known = opened.get(stored.kid);
    if (known) return known;
    const pkcs8 = sealing.open(stored.sealed, stored.kid);
    if (!pkcs8) throw new Error(`OpenID Provider key ${stored.kid} cannot be decrypted with this JWT_SECRET`);
    const jwk = crypto.createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' }).export({ format: 'jwk' });
    return { ...jwk, kid: stored.kid, alg, use: 'sig' };
  }

  /** A new key of one algorithm as a row's payload; its kid is the RFC 7638 thumbprint. */
  async function newKey(alg: ProviderAlgorithm): Promise<StoredKey> {
    const pair = await KEYS[alg].generate();
    const members = thumbprintMembers(pair.publicKey.export({ format: 'jwk' }));
    const kid = `oidc-${crypto.hash('sha256', JSON.stringify(members), 'base64url').slice(0, 22)}`;
    return { kid, sealed: sealing.seal(pair.privateKey.export({ format: 'der', type: 'pkcs8' }), kid), alg, createdAt: new Date().toISOString() };
  }

  /** The signing row of one algorithm, made when there is none yet (the first start). */
  async function signingRow(alg: ProviderAlgorithm, rows: Array<InstanceType<Models['OidcPayload']>>) {
    const existing = rows.find((row) => row.id === KEYS[alg].id);
    if (existing) return existing;
    const where = { model: MODEL, id: KEYS[alg].id };
    const [row] = await models.OidcPayload.findOrCreate({
      where,
      defaults: { ...where, payload: JSON.stringify(await newKey(alg)), grantId: null, uid: null, userCode: null, expiresAt: null },
    });
    return row;
  }

  async function readSet(): Promise<KeySetCopy> {
    // The version before the rows: a rotation that lands in between leaves a copy already stale.
    const readVersion = await version.current();
    const now = new Date();
    const rows = await models.OidcPayload.findAll({ where: { model: MODEL, [Op.or]: [{ expiresAt: null }, { expiresAt: { [Op.gt]: now } }] } });
    const signingIds = new Set(ALGORITHMS.map((alg) => KEYS[alg].id));
    const views: SigningKeyView[] = [];
    const signing = {} as Record<ProviderAlgorithm, PrivateJwk>;
    for (const alg of ALGORITHMS) {
      const stored = JSON.parse((await signingRow(alg, rows)).payload) as StoredKey;
      signing[alg] = open(stored, alg);
      views.push({ kid: stored.kid, algorithm: alg, createdAt: createdAtOf(stored), retiresAt: null, signing: true, signs: KEYS[alg].signs });
    }
    const replaced: ProviderKeySet['replaced'] = [];
    const replacedJwks: PrivateJwk[] = [];
    for (const row of rows.filter((each) => !signingIds.has(each.id)).sort((a, b) => (b.expiresAt as Date).getTime() - (a.expiresAt as Date).getTime())) {
      const stored = JSON.parse(row.payload) as StoredKey;
      const alg = stored.alg as ProviderAlgorithm;
      const jwk = open(stored, alg);
      replacedJwks.push(jwk);
      replaced.push({ jwk: { ...jwk, key_ops: ['verify'] }, retiresAt: row.expiresAt as Date });
      views.push({ kid: stored.kid, algorithm: alg, createdAt: createdAtOf(stored), retiresAt: row.expiresAt, signing: false, signs: KEYS[alg].signs });
    }
    opened = new Map([...ALGORITHMS.map((alg) => signing[alg]), ...replacedJwks].map((jwk) => [jwk.kid, jwk]));
    const id = [...ALGORITHMS.map((alg) => signing[alg].kid), ...replaced.map(({ jwk }) => jwk.kid)].join(' ');
    const firstRetirement = Math.min(...replaced.map(({ retiresAt }) => retiresAt.getTime()));
    return { set: { id, signing, replaced, views }, version: readVersion, validUntil: Math.min(Date.now() + KEY_SET_MAX_AGE_MS, firstRetirement) };
  }

  function reload(): Promise<KeySetCopy> {
    loading ??= readSet()
      .then((fresh) => (copy = fresh))
      .finally(() => {
        loading = null;
      });
    return loading;
  }

  /** The key set as of the store's version; read from the table only when it may have changed. */
  async function current(): Promise<ProviderKeySet> {
    const seen = await version.current();
    const held = copy;
    if (held && seen !== null && held.version === seen && Date.now() < held.validUntil) return held.set;
    return (await reload()).set;
  }

  /**
   * New signing keys for both algorithms, at once on every instance. In one transaction each algorithm's signing row
   * is replaced only if it still holds the key read (compare-and-set), and the key it held moves to a row retiring
   * after the longest-lived token it can have signed; rows past their retirement go. Of two rotations at once the
   * first to commit wins; the other changes nothing and answers the winner's keys (`rotated: false`).
   */
  async function rotate(): Promise<{ rotated: boolean; set: ProviderKeySet }> {
    await current();
    // The keys to replace are read before the new ones are made: two rotations asked at once replace the same keys.
    const before = await models.OidcPayload.findAll({ where: { model: MODEL, id: ALGORITHMS.map((alg) => KEYS[alg].id) } });
    const fresh = await Promise.all(ALGORITHMS.map(newKey));
    const rotatedAt = new Date();
    const retiresAt = new Date(rotatedAt.getTime() + REPLACED_KEY_LIFETIME_SECONDS * 1000);
    const sequelize = models.OidcPayload.sequelize as NonNullable<typeof models.OidcPayload.sequelize>;
    const lost = new Error('another rotation committed first');
    const rotated = await transactionWithRetry(sequelize, async (transaction) => {
      for (const [index, alg] of ALGORITHMS.entries()) {
        const where = { model: MODEL, id: KEYS[alg].id };
        const replacedRow = before.find((row) => row.id === where.id) as (typeof before)[number];
        const [changed] = await models.OidcPayload.update({ payload: JSON.stringify(fresh[index]) }, { where: { ...where, payload: replacedRow.payload }, transaction });
        if (changed !== 1) throw lost;
        const replacedKey: StoredKey = { ...(JSON.parse(replacedRow.payload) as StoredKey), alg };
        await models.OidcPayload.create({ model: MODEL, id: replacedKey.kid, payload: JSON.stringify(replacedKey), grantId: null, uid: null, userCode: null, expiresAt: retiresAt }, { transaction });
      }
      await models.OidcPayload.destroy({ where: { model: MODEL, expiresAt: { [Op.lte]: rotatedAt } }, transaction });
      return true;
    }).catch((err: unknown) => {
      if (err === lost) return false;
      throw err;
    });
    if (rotated) {
      try {
        await version.bump();
      } catch (err) {
        log.warn({ err: (err as Error).message }, `key-value store unavailable: other instances sign with the new keys within ${KEY_SET_MAX_AGE_MS / 1000} s`);
      }
      log.info({ kids: fresh.map((key) => key.kid) }, 'OpenID Provider keys rotated');
    }
    // Read afresh, not through a reload that may have begun before the commit: the answer names the keys that sign now.
    copy = await readSet();
    return { rotated, set: copy.set };
  }

  return { current, rotate };
}

export type ProviderKeys = ReturnType<typeof createProviderKeys>;

/** The public members of a private JWK, for the service's JWKS. */
export function publicJwk(jwk: PrivateJwk): Record<string, unknown> {
  return { ...thumbprintMembers(jwk), kid: jwk.kid, alg: jwk.alg, use: jwk.use };
}

/** Every key of a set, signing keys first: what verifies the provider's tokens and what the JWKS publishes. */
export function everyJwk(set: ProviderKeySet): PrivateJwk[] {
  return [...ALGORITHMS.map((alg) => set.signing[alg]), ...set.replaced.map(({ jwk }) => jwk)];
}

/**
 * The `jti` of an access token JWT the provider signed with one of `jwks` (the alg and kid of that key, `typ:
 * at+jwt`, a valid signature), or undefined for anything else: the adapter finds a token's record by the JWT only.
 * Any of the provider's keys, not only today's access-token key: tokens signed RS256 before access tokens moved to
 * ES256, and tokens of a replaced key, stay valid for their hour.
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
