/**
 * The store could not be reached (down, not answering, or paused after a recent failure). A request that
 * cannot do without the store answers 503 for it, as for an unreachable database (the error handler maps it).
 */
export class StoreUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreUnavailableError';
  }
}

/** Result of an atomic counter increment: the new count and when its window ends (epoch ms). */
export interface CounterState {
  count: number;
  resetAt: number;
}

/**
 * Calls that failed since the store was made, by why: `unavailable` (down, not answering, or paused after
 * a recent failure) and `refused` (an error reply, such as a Redis out of memory refusing a write). The
 * store counts them itself; the metrics read them at each scrape.
 */
export interface StoreFailures {
  unavailable: number;
  refused: number;
}

/**
 * The shared state every instance sees: verification cache, rate-limit counters, revocations and
 * one-time state. Redis in production; an in-process map for the single-process embedded default.
 * Every method may reject (Redis down), and none waits for an answer much longer than a second (the
 * implementation bounds it), so callers need no timeouts of their own: they decide whether a rejection
 * fails open or closed.
 */
export interface KeyValueStore {
  readonly kind: 'memory' | 'redis';
  /** Failed calls so far (absent for a store that cannot fail, the in-process one). */
  readonly failures?: Readonly<StoreFailures>;
  get(key: string): Promise<string | null>;
  /** Reads several keys in one round trip. */
  getMany(keys: readonly string[]): Promise<Array<string | null>>;
  set(key: string, value: string, ttlSeconds?: number): Promise<void>;
  /** Sets only when the key is absent; true when this call set it (a lock or a one-time claim). */
  setIfAbsent(key: string, value: string, ttlSeconds: number): Promise<boolean>;
  delete(key: string): Promise<void>;
  /** Reads and deletes in one step; the value goes to exactly one caller. */
  take(key: string): Promise<string | null>;
  /** Increments a counter, starting its expiry window on the first increment. */
  increment(key: string, windowSeconds: number): Promise<CounterState>;
  ping(): Promise<void>;
  close(): Promise<void>;
  /**
   * Calls the listener whenever the store may have lost writes it acknowledged (a connection lost, a failover:
   * Redis replicates asynchronously). Absent for a store that cannot lose them (the in-process one).
   */
  onPossibleLoss?(listener: () => void): void;
}
