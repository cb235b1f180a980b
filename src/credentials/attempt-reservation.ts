import crypto from 'node:crypto';
import type { Logger } from 'pino';
import type { KeyValueStore } from '../store';

/** At most `limit` failed guesses per id within one window (which starts at the first attempt). */
export interface AttemptRule {
  limit: number;
  windowSeconds: number;
}

/** A taken attempt: judge the guess, then say how it went (exactly once). */
export interface Reservation {
  ok: true;
  /** The guess was right: the attempt is given back, so a success never counts as a failure. */
  succeeded(): Promise<void>;
  /** The guess was wrong: the attempt stays taken; answers whether this failure reached the limit. */
  failed(): Promise<{ limitReached: boolean }>;
}

/** No attempt may be judged now; `until` (epoch ms) is the block's end, for the activity row that counts its refusals. */
export interface Refusal {
  ok: false;
  retryAfterSeconds: number;
  until: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Reserve, then judge: the one way a guessable secret (a password, a one-time code, a second-factor answer)
 * is limited. An attempt is taken with the store's atomic increment BEFORE the secret is compared, so N
 * parallel guesses never judge more than `limit`; a right guess gives its attempt back (a second counter,
 * also an increment, in the same window: the store has no decrement), a wrong one keeps it, and the
 * `limit`-th failure writes a block mark every later attempt reads first. Attempts beyond the limit while
 * others are still being judged either wait for them (`waitMs`: parallel right answers are delayed, never
 * refused) or are refused at once (`waitMs` 0). `clear` starts a new generation of counters, so attempts
 * still in flight cannot give back into it. Everything is in the shared store (every instance sees it);
 * a store failure lets the attempt through, as the per-IP limits still hold.
 */
export function createAttemptReservation(deps: { store: KeyValueStore; logger: Logger; name: string; rule: AttemptRule; waitMs?: number }) {
  const { store, logger, name, rule } = deps;
  const waitMs = deps.waitMs ?? 0;
  const keys = (id: string) => {
    const hashed = crypto.createHash('sha256').update(id).digest('hex');
    return {
      blocked: `${name}:blocked:${hashed}`,
      generation: `${name}:gen:${hashed}`,
      counters: (generation: string) => ({
        taken: `${name}:taken:${generation}:${hashed}`,
        back: `${name}:back:${generation}:${hashed}`,
        failures: `${name}:failures:${generation}:${hashed}`,
      }),
    };
  };
  const unavailable = (what: string) => (err: unknown) => {
    logger.warn({ err: (err as Error).message, counter: name }, `attempt limit unavailable: ${what}`);
  };
  /** What a store failure leaves: the attempt goes ahead and nothing is counted. */
  const uncounted: Reservation = { ok: true, succeeded: async () => {}, failed: async () => ({ limitReached: false }) };
  const refusal = (until: number): Refusal => ({ ok: false, retryAfterSeconds: Math.max(1, Math.ceil((until - Date.now()) / 1000)), until });
  /** Seconds left until `resetAt`: a second counter made now ends with the first (never later, so it never outlives it). */
  const leftOf = (resetAt: number) => Math.max(0.001, (resetAt - Date.now()) / 1000);

  async function giveBack(back: string, resetAt: number): Promise<void> {
    await store.increment(back, leftOf(resetAt)).then(() => undefined, unavailable('attempt not given back'));
  }

  function reservation(counters: ReturnType<ReturnType<typeof keys>['counters']>, blocked: string, resetAt: number): Reservation {
    let settled = false;
    const once = () => {
      if (settled) throw new Error('an attempt is settled once');
      settled = true;
    };
    return {
      ok: true,
      async succeeded() {
        once();
        await giveBack(counters.back, resetAt);
      },
      async failed() {
        once();
        try {
          const { count, resetAt: failuresEnd } = await store.increment(counters.failures, rule.windowSeconds);
          const left = (failuresEnd - Date.now()) / 1000;
          if (count < rule.limit || left <= 0) return { limitReached: false };
          await store.set(blocked, String(failuresEnd), left);
          return { limitReached: true };
        } catch (err) {
          unavailable('failure not counted')(err);
          return { limitReached: false };
        }
      },
    };
  }

  /** Takes one attempt for `id` before its guess is judged, or refuses it (blocked, or the limit taken by attempts being judged). */
  async function reserve(id: string): Promise<Reservation | Refusal> {
    const { blocked, generation, counters } = keys(id);
    const deadline = Date.now() + waitMs;
    try {
      for (let pause = 10, first = true; ; pause = Math.min(pause * 2, 100), first = false) {
        const [until, current] = await store.getMany([blocked, generation]);
        if (Number(until) > Date.now()) return refusal(Number(until));
        const named = counters(current ?? '0');
        // The given-back count is read BEFORE the attempt is taken: every attempt it includes is in the taken
        // count then, so `taken - back` never undercounts the attempts being judged (read after, it could
        // include attempts taken after ours). The first try skips it (below the limit it cannot matter); over
        // the limit, it gives its attempt back and tries once more with the given-back attempts counted.
        const back = first ? 0 : Number(await store.get(named.back));
        const taken = await store.increment(named.taken, rule.windowSeconds);
        if (taken.count - back <= rule.limit) return reservation(named, blocked, taken.resetAt);
        await giveBack(named.back, taken.resetAt);
        if (first) continue;
        if (Date.now() + pause > deadline) return refusal(waitMs > 0 ? Date.now() + 1000 : taken.resetAt);
        // Jittered, so parallel waiters do not retry in step.
        await sleep(pause / 2 + Math.random() * pause);
      }
    } catch (err) {
      unavailable('attempt allowed')(err);
      return uncounted;
    }
  }

  /** Forgets every attempt and lifts the block of `id` (a right password, a password reset). */
  async function clear(id: string): Promise<void> {
    const { blocked, generation } = keys(id);
    // Twice the window: the generation must outlive every counter made under it.
    await Promise.all([store.set(generation, crypto.randomBytes(8).toString('hex'), 2 * rule.windowSeconds), store.delete(blocked)]).catch(unavailable('attempts not cleared'));
  }

  return { rule: rule as Readonly<AttemptRule>, reserve, clear };
}

export type AttemptReservation = ReturnType<typeof createAttemptReservation>;

/**
 * Takes an attempt in each limit (the challenge's and the account's, say) before one guess is judged: all or
 * none, so a refusal by one gives back what the others took. The result settles them together.
 */
export async function reserveAll(attempts: Array<Promise<Reservation | Refusal>>): Promise<Reservation | (Refusal & { refusedBy: number })> {
  const results = await Promise.all(attempts);
  const refusedBy = results.findIndex((result) => !result.ok);
  const taken = results.filter((result): result is Reservation => result.ok);
  if (refusedBy >= 0) {
    await Promise.all(taken.map((reservation) => reservation.succeeded()));
    return { ...(results[refusedBy] as Refusal), refusedBy };
  }
  return {
    ok: true,
    succeeded: async () => {
      await Promise.all(taken.map((reservation) => reservation.succeeded()));
    },
    failed: async () => {
      const outcomes = await Promise.all(taken.map((reservation) => reservation.failed()));
      return { limitReached: outcomes.some((outcome) => outcome.limitReached) };
    },
  };
}
