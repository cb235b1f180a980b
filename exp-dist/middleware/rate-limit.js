"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.SharedRateLimitStore = exports.RATE_LIMITS = void 0;
exports.createRateLimits = createRateLimits;
const express_rate_limit_1 = require("express-rate-limit");
const app_error_1 = require("../http/app-error");
exports.RATE_LIMITS = {
    login: { limit: 5, windowSeconds: 60 },
    register: { limit: 3, windowSeconds: 60 },
    seedAdmin: { limit: 2, windowSeconds: 60 },
    passwordReset: { limit: 3, windowSeconds: 15 * 60 },
    refresh: { limit: 60, windowSeconds: 60 },
};
/** Key namespace in the key-value store: `rl:<limiter>:<client ip>`. */
const KEY_SEGMENT = {
    login: 'login',
    register: 'register',
    seedAdmin: 'seed-admin',
    passwordReset: 'password-reset',
    refresh: 'refresh',
};
/** A shared-store call that takes longer than this counts as a failure (the request never hangs on it). */
const STORE_TIMEOUT_MS = 1000;
/** While the shared store is failing, it is still tried, but the outage is logged at most this often. */
const OUTAGE_LOG_INTERVAL_MS = 60_000;
function withTimeout(promise, ms) {
    return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`key-value store did not answer within ${ms} ms`)), ms);
        promise.then((value) => {
            clearTimeout(timer);
            resolve(value);
        }, (err) => {
            clearTimeout(timer);
            reject(err instanceof Error ? err : new Error(String(err)));
        });
    });
}
/**
 * express-rate-limit store on our KeyValueStore: counters live in Redis (atomic INCR + PEXPIRE), so every
 * instance shares them. When the shared store fails or is slow, this request is counted by an in-process
 * MemoryStore instead: requests are never blocked by the outage, and limiting degrades to per-instance.
 */
class SharedRateLimitStore {
    store;
    logger;
    prefix;
    localKeys;
    fallback = new express_rate_limit_1.MemoryStore();
    windowMs = 60_000;
    degradedSince = null;
    lastOutageLog = 0;
    constructor(store, name, logger) {
        this.store = store;
        this.logger = logger;
        this.prefix = `rl:${name}:`;
        this.localKeys = store.kind === 'memory';
    }
    init(options) {
        this.windowMs = options.windowMs;
        this.fallback.init(options);
    }
    async increment(key) {
        try {
            const { count, resetAt } = await withTimeout(this.store.increment(this.prefix + key, this.windowMs / 1000), STORE_TIMEOUT_MS);
            this.recovered();
            return { totalHits: count, resetTime: new Date(resetAt) };
        }
        catch (err) {
            this.failed(err);
            return this.fallback.increment(key);
        }
    }
    async decrement(key) {
        // Only used with skip(Successful|Failed)Requests, which these limiters do not set.
        await this.fallback.decrement(key);
    }
    async resetKey(key) {
        await this.fallback.resetKey(key);
        await this.store.delete(this.prefix + key).catch(() => undefined);
    }
    shutdown() {
        this.fallback.shutdown();
    }
    failed(err) {
        const now = Date.now();
        if (this.degradedSince === null)
            this.degradedSince = now;
        if (now - this.lastOutageLog >= OUTAGE_LOG_INTERVAL_MS) {
            this.lastOutageLog = now;
            this.logger.warn({ limiter: this.prefix, err: err.message }, 'rate limit store unavailable: counting in this process until it recovers');
        }
    }
    recovered() {
        if (this.degradedSince === null)
            return;
        this.logger.info({ limiter: this.prefix, outageMs: Date.now() - this.degradedSince }, 'rate limit store recovered');
        this.degradedSince = null;
        this.lastOutageLog = 0;
    }
}
exports.SharedRateLimitStore = SharedRateLimitStore;
/** The client key: `req.ip` (TRUST_PROXY decides whether X-Forwarded-For counts); IPv6 grouped by /56. */
function clientKey(req) {
    return req.ip ? (0, express_rate_limit_1.ipKeyGenerator)(req.ip, 56) : 'unknown';
}
function secondsUntil(resetTime, fallbackMs) {
    const ms = resetTime ? resetTime.getTime() - Date.now() : fallbackMs;
    return Math.max(1, Math.ceil(ms / 1000));
}
/**
 * One limiter per limited endpoint. Every answer carries X-RateLimit-Limit / -Remaining / -Reset (epoch
 * seconds); the 429 also carries Retry-After and goes through the error handler (JSON or an HTML page).
 */
function createRateLimits({ store, logger, overrides = {} }) {
    const log = logger.child({ component: 'rate-limit' });
    const build = (name) => {
        const rule = { ...exports.RATE_LIMITS[name], ...overrides[name] };
        const windowMs = Math.max(1, Math.round(rule.windowSeconds * 1000));
        return (0, express_rate_limit_1.rateLimit)({
            windowMs,
            limit: rule.limit,
            legacyHeaders: true,
            standardHeaders: false,
            store: new SharedRateLimitStore(store, KEY_SEGMENT[name], log),
            keyGenerator: (req) => clientKey(req),
            // The library's own console warnings would bypass our logger; its checks are covered by tests.
            validate: false,
            logger: {
                error: (err, message) => log.error({ err: err?.message }, message ?? 'rate limiter error'),
                warn: (err, message) => log.warn({ err: err?.message }, message ?? 'rate limiter warning'),
            },
            handler: (req, _res, next) => {
                const info = req.rateLimit;
                next(app_error_1.AppError.tooManyRequests(secondsUntil(info?.resetTime, windowMs)));
            },
        });
    };
    return {
        login: build('login'),
        register: build('register'),
        seedAdmin: build('seedAdmin'),
        passwordReset: build('passwordReset'),
        refresh: build('refresh'),
    };
}
//# sourceMappingURL=rate-limit.js.map