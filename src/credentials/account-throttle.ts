import type { Logger } from 'pino';
import type { KeyValueStore } from '../store';
import { createAttemptReservation, type Refusal, type Reservation } from './attempt-reservation';

/** Guesses (passwords, one-time codes) per email that may fail within one window, whoever sends them. */
export interface AccountThrottleRule {
  maxFailures: number;
  windowSeconds: number;
}

/** 10 failed guesses for one email in 15 minutes. */
export const ACCOUNT_THROTTLE: Readonly<AccountThrottleRule> = { maxFailures: 10, windowSeconds: 15 * 60 };

/**
 * How long an attempt beyond the limit waits for the attempts being judged before it is refused: parallel
 * right passwords (each given back, or clearing the count) are delayed by a hash or two, never refused.
 */
const WAIT_FOR_ATTEMPTS_MS = 5_000;

export type { Reservation, Refusal };

/**
 * A per-account brake on guessing that the per-IP limit cannot give (an attacker with many addresses):
 * every password check (src/credentials/password-check.ts), one-time code, second-factor answer, step-up
 * code and enrolment confirmation reserves an attempt here before its secret is compared (reserve, then
 * judge: src/credentials/attempt-reservation.ts), so parallel guesses never judge more than the limit.
 * Keyed by a hash of the normalized email (no address in the store), whether or not an account has it: an
 * unknown email is throttled exactly like a known one and the answer reveals nothing.
 */
export function createAccountThrottle(deps: { store: KeyValueStore; logger: Logger; rule?: Partial<AccountThrottleRule>; /** Key prefix: another counter under the same rule (second-factor answers). */ name?: string }) {
  const rule = { ...ACCOUNT_THROTTLE, ...deps.rule };
  const attempts = createAttemptReservation({
    store: deps.store,
    logger: deps.logger,
    name: deps.name ?? 'acct-throttle',
    rule: { limit: rule.maxFailures, windowSeconds: rule.windowSeconds },
    waitMs: WAIT_FOR_ATTEMPTS_MS,
  });

  return {
    rule: rule as Readonly<AccountThrottleRule>,
    /** Takes one attempt for this (normalized) email before its guess is judged, or refuses it. */
    reserve: (email: string): Promise<Reservation | Refusal> => attempts.reserve(email),
    /** Forgets the failures and lifts the block of this email (a right password, a password reset). */
    clear: (email: string): Promise<void> => attempts.clear(email),
  };
}

export type AccountThrottle = ReturnType<typeof createAccountThrottle>;
