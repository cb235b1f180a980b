import Redis from 'ioredis';
import type { CounterState, KeyValueStore } from './key-value-store';
type RedisWithIncrement = Redis & {
    windowIncrement(key: string, windowMs: number): Promise<[number, number]>;
};
export interface RedisStoreOptions {
    /** Prefix for every key, so several deployments or test runs can share one Redis. */
    keyPrefix?: string;
}
/** Redis-backed store. A dead Redis makes calls fail fast instead of queueing or hanging. */
export declare class RedisStore implements KeyValueStore {
    readonly kind: "redis";
    readonly client: RedisWithIncrement;
    private readonly keyPrefix;
    constructor(url: string, options?: RedisStoreOptions);
    /** Connects once at start; failure is reported, and the store keeps retrying in the background. */
    connect(): Promise<void>;
    get(key: string): Promise<string | null>;
    getMany(keys: string[]): Promise<Array<string | null>>;
    set(key: string, value: string, ttlSeconds?: number): Promise<void>;
    setIfAbsent(key: string, value: string, ttlSeconds: number): Promise<boolean>;
    delete(key: string): Promise<void>;
    take(key: string): Promise<string | null>;
    increment(key: string, windowSeconds: number): Promise<CounterState>;
    ping(): Promise<void>;
    /** Removes every key under this store's prefix, and nothing else in the Redis database. */
    clear(): Promise<void>;
    close(): Promise<void>;
}
export {};
