"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.MemoryStore = void 0;
const SWEEP_INTERVAL_MS = 60_000;
/** In-process store for the embedded default: one process only, lost on restart. */
class MemoryStore {
    now;
    kind = 'memory';
    entries = new Map();
    sweeper;
    constructor(now = Date.now) {
        this.now = now;
        // Expired keys are dropped lazily on read; the sweep bounds memory for keys never read again.
        this.sweeper = setInterval(() => this.sweep(), SWEEP_INTERVAL_MS);
        this.sweeper.unref();
    }
    async get(key) {
        return this.live(key)?.value ?? null;
    }
    async getMany(keys) {
        return keys.map((key) => this.live(key)?.value ?? null);
    }
    async set(key, value, ttlSeconds) {
        this.entries.set(key, { value, expiresAt: this.expiry(ttlSeconds) });
    }
    async setIfAbsent(key, value, ttlSeconds) {
        if (this.live(key))
            return false;
        this.entries.set(key, { value, expiresAt: this.expiry(ttlSeconds) });
        return true;
    }
    async delete(key) {
        this.entries.delete(key);
    }
    async take(key) {
        const entry = this.live(key);
        this.entries.delete(key);
        return entry?.value ?? null;
    }
    async increment(key, windowSeconds) {
        const entry = this.live(key);
        if (!entry) {
            const expiresAt = this.now() + windowSeconds * 1000;
            this.entries.set(key, { value: '1', expiresAt });
            return { count: 1, resetAt: expiresAt };
        }
        entry.value = String(Number(entry.value) + 1);
        return { count: Number(entry.value), resetAt: entry.expiresAt ?? this.now() + windowSeconds * 1000 };
    }
    async ping() { }
    /** Removes every key (tests start from a clean store). */
    async clear() {
        this.entries.clear();
    }
    async close() {
        clearInterval(this.sweeper);
        this.entries.clear();
    }
    expiry(ttlSeconds) {
        return ttlSeconds === undefined ? null : this.now() + ttlSeconds * 1000;
    }
    live(key) {
        const entry = this.entries.get(key);
        if (entry && entry.expiresAt !== null && entry.expiresAt <= this.now()) {
            this.entries.delete(key);
            return undefined;
        }
        return entry;
    }
    sweep() {
        const now = this.now();
        for (const [key, entry] of this.entries) {
            if (entry.expiresAt !== null && entry.expiresAt <= now)
                this.entries.delete(key);
        }
    }
}
exports.MemoryStore = MemoryStore;
//# sourceMappingURL=memory-store.js.map