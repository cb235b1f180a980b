import crypto from 'node:crypto';
import type { KeyValueStore } from './key-value-store';

/** A version lives this long unread-and-unmoved; a copy is also re-read on its own age, so expiry only costs one read. */
const VERSION_TTL_SECONDS = 86_400;

/**
 * A version every instance reads from the shared store before using a copy it holds in memory: a change
 * anywhere moves it (`bump`), so every instance reads the rows again on its next use. A missing version is
 * made once (the first writer wins). The store unreadable: null, and the caller reads the rows every time.
 */
export function createSharedVersion(store: KeyValueStore, key: string) {
  async function current(): Promise<string | null> {
    try {
      const version = await store.get(key);
      if (version !== null) return version;
      const fresh = crypto.randomUUID();
      return (await store.setIfAbsent(key, fresh, VERSION_TTL_SECONDS)) ? fresh : await store.get(key);
    } catch {
      return null;
    }
  }

  /** Moves the version; rejects when the store cannot be written (the caller says what that delays). */
  async function bump(): Promise<void> {
    await store.set(key, crypto.randomUUID(), VERSION_TTL_SECONDS);
  }

  return { current, bump };
}
