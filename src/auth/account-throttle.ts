import crypto from 'node:crypto';
import type { Logger } from 'pino';
import type { KeyValueStore } from '../store';

/** Password sign-in attempts per email that may fail within one window, whoever sends them. */
export interface AccountThrottleRule {
  maxFailures: number;
  windowSeconds: number;
}

/** 10 failed password sign-ins for one email in 15 minutes; the window starts at the first of them. */
export const ACCOUNT_THROTTLE: Readonly<AccountThrottleRule> = { maxFailures: 10, windowSeconds: 15 * 60 };

export type ThrottleDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * A per-account brake on password guessing that the per-IP limit cannot give (an attacker with many
 * addresses). The counter lives in the shared store, so every instance sees it, keyed by a hash of the
 * normalized email (no address in the store), whether or not an account has it: an unknown email is
 * throttled exactly like a known one and the answer reveals nothing.
 *
 * Every attempt takes a slot before its password is checked (an atomic increment), so of any number of
 * parallel guesses at most `maxFailures` are ever checked; a success gives the slots back (`clear`).
 * A store failure lets the attempt through: the per-IP limit still applies.
 */
export function createAccountThrottle(deps: { store: KeyValueStore; logger: Logger; rule?: Partial<AccountThrottleRule> }) {
  const { store, logger } = deps;
  const rule = { ...ACCOUNT_THROTTLE, ...deps.rule };
  const key = (email: string) => `acct-throttle:password:${crypto.createHash('sha256').update(email).digest('hex')}`;

  /** Takes a slot for one attempt on this (normalized) email, or says how long it is blocked. */
  async function reserve(email: string): Promise<ThrottleDecision> {
    try {
      const { count, resetAt } = await store.increment(key(email), rule.windowSeconds);
      if (count <= rule.maxFailures) return { allowed: true };
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((resetAt - Date.now()) / 1000)) };
    } catch (err) {
      logger.warn({ err: (err as Error).message }, 'account throttle unavailable: attempt allowed');
      return { allowed: true };
    }
  }

  /** Forgets the failures of this email (a successful sign-in or password reset). */
  async function clear(email: string): Promise<void> {
    await store.delete(key(email)).catch((err: unknown) => {
      logger.warn({ err: (err as Error).message }, 'account throttle unavailable: failures not cleared');
    });
  }

  return { reserve, clear, rule };
}

export type AccountThrottle = ReturnType<typeof createAccountThrottle>;
