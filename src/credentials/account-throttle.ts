import crypto from 'node:crypto';
import type { Logger } from 'pino';
import type { KeyValueStore } from '../store';

/** Guesses (passwords, one-time codes) per email that may fail within one window, whoever sends them. */
export interface AccountThrottleRule {
  maxFailures: number;
  windowSeconds: number;
}

/** 10 failed guesses for one email in 15 minutes; the window starts at the first of them. */
export const ACCOUNT_THROTTLE: Readonly<AccountThrottleRule> = { maxFailures: 10, windowSeconds: 15 * 60 };

/** A refusal also names the block's end (epoch ms): one block is one window, for the activity row that counts its refusals. */
export type ThrottleDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number; until: number };

/**
 * A per-account brake on guessing that the per-IP limit cannot give (an attacker with many addresses):
 * every password check (src/auth/password-check.ts) and every one-time code check counts here. The failure counter lives in the shared store, so every instance sees it, keyed by a hash
 * of the normalized email (no address in the store), whether or not an account has it: an unknown email
 * is throttled exactly like a known one and the answer reveals nothing.
 *
 * Only failures count, so any number of parallel sign-ins with the right password succeed. The 10th
 * failure writes a block mark that lives until the window ends; every attempt first reads that mark (one
 * GET) and is refused without hashing while it stands. Attempts already being checked when it lands
 * still get their 401 (at most one burst, bounded by the per-IP limit). A store failure lets attempts
 * through: the per-IP limit still applies.
 */
export function createAccountThrottle(deps: { store: KeyValueStore; logger: Logger; rule?: Partial<AccountThrottleRule>; /** Key prefix: another counter under the same rule (second-factor answers). */ name?: string }) {
  const { store, logger } = deps;
  const rule = { ...ACCOUNT_THROTTLE, ...deps.rule };
  const keys = (email: string) => {
    const id = crypto.createHash('sha256').update(email).digest('hex');
    const name = deps.name ?? 'acct-throttle';
    return { failures: `${name}:failures:${id}`, blocked: `${name}:blocked:${id}` };
  };
  const unavailable = (what: string) => (err: unknown) => {
    logger.warn({ err: (err as Error).message }, `account throttle unavailable: ${what}`);
  };

  /** Whether attempts for this (normalized) email may be checked now, or how long they are blocked. */
  async function check(email: string): Promise<ThrottleDecision> {
    try {
      const until = Number(await store.get(keys(email).blocked));
      const retryAfterSeconds = Math.ceil((until - Date.now()) / 1000);
      return until > 0 && retryAfterSeconds > 0 ? { allowed: false, retryAfterSeconds, until } : { allowed: true };
    } catch (err) {
      unavailable('attempt allowed')(err);
      return { allowed: true };
    }
  }

  /** Counts a failed attempt; the one that reaches the limit blocks the email until the window ends. */
  async function recordFailure(email: string): Promise<void> {
    const { failures, blocked } = keys(email);
    try {
      const { count, resetAt } = await store.increment(failures, rule.windowSeconds);
      const remaining = (resetAt - Date.now()) / 1000;
      if (count >= rule.maxFailures && remaining > 0) await store.set(blocked, String(resetAt), remaining);
    } catch (err) {
      unavailable('failure not counted')(err);
    }
  }

  /** Forgets the failures and lifts the block of this email (a successful sign-in or password reset). */
  async function clear(email: string): Promise<void> {
    const { failures, blocked } = keys(email);
    await Promise.all([store.delete(failures), store.delete(blocked)]).catch(unavailable('failures not cleared'));
  }

  return { rule: rule as Readonly<AccountThrottleRule>, check, recordFailure, clear };
}

export type AccountThrottle = ReturnType<typeof createAccountThrottle>;
