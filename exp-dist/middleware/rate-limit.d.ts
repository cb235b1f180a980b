import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { type Options, type Store, type ClientRateLimitInfo } from 'express-rate-limit';
import type { KeyValueStore } from '../store';
/** The limited endpoints (SPEC 8 and CONTRACT 4). */
export type LimitName = 'login' | 'register' | 'seedAdmin' | 'passwordReset' | 'refresh';
export interface LimitRule {
    /** Requests allowed per window and client IP. */
    limit: number;
    /** Window length in seconds (fractions allowed, for tests). */
    windowSeconds: number;
}
export declare const RATE_LIMITS: Readonly<Record<LimitName, LimitRule>>;
export interface RateLimitsOptions {
    store: KeyValueStore;
    logger: Logger;
    /** Replaces limits or windows (tests use a short window to watch it reset). */
    overrides?: Partial<Record<LimitName, Partial<LimitRule>>>;
}
export type RateLimits = Record<LimitName, RequestHandler>;
/**
 * express-rate-limit store on our KeyValueStore: counters live in Redis (atomic INCR + PEXPIRE), so every
 * instance shares them. When the shared store fails or is slow, this request is counted by an in-process
 * MemoryStore instead: requests are never blocked by the outage, and limiting degrades to per-instance.
 */
export declare class SharedRateLimitStore implements Store {
    private readonly store;
    private readonly logger;
    readonly prefix: string;
    readonly localKeys: boolean;
    private readonly fallback;
    private windowMs;
    private degradedSince;
    private lastOutageLog;
    constructor(store: KeyValueStore, name: string, logger: Logger);
    init(options: Options): void;
    increment(key: string): Promise<ClientRateLimitInfo>;
    decrement(key: string): Promise<void>;
    resetKey(key: string): Promise<void>;
    shutdown(): void;
    private failed;
    private recovered;
}
/**
 * One limiter per limited endpoint. Every answer carries X-RateLimit-Limit / -Remaining / -Reset (epoch
 * seconds); the 429 also carries Retry-After and goes through the error handler (JSON or an HTML page).
 */
export declare function createRateLimits({ store, logger, overrides }: RateLimitsOptions): RateLimits;
