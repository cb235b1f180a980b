import type { CounterState, KeyValueStore } from './key-value-store';

interface Entry {
  value: string;
  expiresAt: number | null;
}

const SWEEP_INTERVAL_MS = 60_000;

/** In-process store for the embedded default: one process only, lost on restart. */
export class MemoryStore implements KeyValueStore {
  readonly kind = 'memory' as const;
  private readonly entries = new Map<string, Entry>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly now: () => number = Date.now) {
    // Expired keys are dropped lazily on read; the sweep bounds memory for keys never read again.
    this.sweeper = setInterval(() => this.sweep(), SWEEP_INTERVAL_MS);
    this.sweeper.unref();
  }

  async get(key: string): Promise<string | null> {
    return this.live(key)?.value ?? null;
  }

  async getMany(keys: readonly string[]): Promise<Array<string | null>> {
    return keys.map((key) => this.live(key)?.value ?? null);
  }

  async set(key: string, value: string, ttlSeconds?: number): Promise<void> {
    this.entries.set(key, { value, expiresAt: this.expiry(ttlSeconds) });
  }

  async setIfAbsent(key: string, value: string, ttlSeconds: number): Promise<boolean> {
    if (this.live(key)) return false;
    this.entries.set(key, { value, expiresAt: this.expiry(ttlSeconds) });
    return true;
  }

  async delete(key: string): Promise<void> {
    this.entries.delete(key);
  }

  async take(key: string): Promise<string | null> {
    const entry = this.live(key);
    this.entries.delete(key);
    return entry?.value ?? null;
  }

  async increment(key: string, windowSeconds: number): Promise<CounterState> {
    const entry = this.live(key);
    if (!entry) {
      const expiresAt = this.now() + windowSeconds * 1000;
      this.entries.set(key, { value: '1', expiresAt });
      return { count: 1, resetAt: expiresAt };
    }
    entry.value = String(Number(entry.value) + 1);
    return { count: Number(entry.value), resetAt: entry.expiresAt ?? this.now() + windowSeconds * 1000 };
  }

  async ping(): Promise<void> {}

  /** Removes every key (tests start from a clean store). */
  async clear(): Promise<void> {
    this.entries.clear();
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    this.entries.clear();
  }

  private expiry(ttlSeconds: number | undefined): number | null {
    return ttlSeconds === undefined ? null : this.now() + ttlSeconds * 1000;
  }

  private live(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt !== null && entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  private sweep(): void {
    const now = this.now();
    for (const [key, entry] of this.entries) {
      if (entry.expiresAt !== null && entry.expiresAt <= now) this.entries.delete(key);
    }
  }
}
