import type { CounterState, KeyValueStore } from './key-value-store';
/** In-process store for the embedded default: one process only, lost on restart. */
export declare class MemoryStore implements KeyValueStore {
    private readonly now;
    readonly kind: "memory";
    private readonly entries;
    private readonly sweeper;
    constructor(now?: () => number);
    get(key: string): Promise<string | null>;
    getMany(keys: string[]): Promise<Array<string | null>>;
    set(key: string, value: string, ttlSeconds?: number): Promise<void>;
    setIfAbsent(key: string, value: string, ttlSeconds: number): Promise<boolean>;
    delete(key: string): Promise<void>;
    take(key: string): Promise<string | null>;
    increment(key: string, windowSeconds: number): Promise<CounterState>;
    ping(): Promise<void>;
    /** Removes every key (tests start from a clean store). */
    clear(): Promise<void>;
    close(): Promise<void>;
    private expiry;
    private live;
    private sweep;
}
