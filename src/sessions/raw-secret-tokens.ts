import crypto from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { Models } from '../models';
import { MAX_TOKEN_LIFETIME_SECONDS } from '../config/duration';

/** Settings row holding when tokens were first signed with JWT_SECRET's derived key (epoch seconds), for every instance. */
export const SUB_KEYS_SINCE_SETTING = 'signing.subKeysSince';

const nowSeconds = () => Math.floor(Date.now() / 1000);

/**
 * HS256 tokens signed with JWT_SECRET itself, as every token was before the per-purpose sub-keys (issue 44).
 * They keep verifying across the upgrade, bounded: issued no later than the derived key's first use (recorded
 * once for every instance) and with no more than the longest lifetime the service grants, so from that record
 * on the raw secret verifies nothing past one maximum lifetime (refresh adds at most its grace). New tokens are
 * never signed with it.
 */
export function createRawSecretTokens(deps: { secret: string; models: Models }) {
  const { models } = deps;
  const rawKey = crypto.createSecretKey(Buffer.from(deps.secret, 'utf8'));
  /** The kid those tokens carry (the oldest ones carry none). */
  const kid = `hs256-${crypto.createHmac('sha256', rawKey).update('kid').digest('base64url').slice(0, 16)}`;
  let since: Promise<number> | null = null;

  /**
   * When the derived keys were first used (epoch seconds): recorded insert-if-absent by the first instance
   * that asks, so every instance and restart agrees; read once per process.
   */
  function derivedKeysSince(): Promise<number> {
    since ??= (async () => {
      await models.Setting.bulkCreate([{ key: SUB_KEYS_SINCE_SETTING, value: nowSeconds() }], { ignoreDuplicates: true });
      const row = await models.Setting.findByPk(SUB_KEYS_SINCE_SETTING, { rejectOnEmpty: true });
      return Number(row.value);
    })().catch((err: unknown) => {
      since = null;
      throw err;
    });
    return since;
  }

  /** The payload of a raw-secret token within the bound (expiry is the caller's: refresh forgives it), else null. */
  async function payload(token: string): Promise<unknown> {
    let claims: unknown;
    try {
      claims = jwt.verify(token, rawKey, { algorithms: ['HS256'], ignoreExpiration: true });
    } catch {
      return null;
    }
    const { iat, exp } = claims as { iat?: unknown; exp?: unknown };
    const cutoff = await derivedKeysSince();
    return typeof iat === 'number' && typeof exp === 'number' && iat <= cutoff && exp <= cutoff + MAX_TOKEN_LIFETIME_SECONDS ? claims : null;
  }

  return { kid, derivedKeysSince, payload };
}
