"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.RedisStore = void 0;
const ioredis_1 = __importDefault(require("ioredis"));
// INCR and the first PEXPIRE must be one step, or a crash between them leaves a counter that never resets.
const INCREMENT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) ttl = tonumber(ARGV[1]) end
return {count, ttl}
`;
/** Redis-backed store. A dead Redis makes calls fail fast instead of queueing or hanging. */
class RedisStore {
    kind = 'redis';
    client;
    keyPrefix;
    constructor(url, options = {}) {
        this.keyPrefix = options.keyPrefix ?? 'auth:';
        this.client = new ioredis_1.default(url, {
            keyPrefix: this.keyPrefix,
            lazyConnect: true,
            enableOfflineQueue: false,
            connectTimeout: 2000,
            commandTimeout: 1000,
            maxRetriesPerRequest: 0,
            retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
        });
        this.client.defineCommand('windowIncrement', { numberOfKeys: 1, lua: INCREMENT_SCRIPT });
        // Errors surface on each command; without a listener ioredis would also crash the process.
        this.client.on('error', () => { });
    }
    /** Connects once at start; failure is reported, and the store keeps retrying in the background. */
    async connect() {
        await this.client.connect();
    }
    async get(key) {
        return this.client.get(key);
    }
    async getMany(keys) {
        if (keys.length === 0)
            return [];
        return this.client.mget(keys);
    }
    async set(key, value, ttlSeconds) {
        if (ttlSeconds === undefined)
            await this.client.set(key, value);
        else
            await this.client.set(key, value, 'PX', Math.max(1, Math.round(ttlSeconds * 1000)));
    }
    async setIfAbsent(key, value, ttlSeconds) {
        const result = await this.client.set(key, value, 'PX', Math.max(1, Math.round(ttlSeconds * 1000)), 'NX');
        return result === 'OK';
    }
    async delete(key) {
        await this.client.del(key);
    }
    async take(key) {
        return this.client.getdel(key);
    }
    async increment(key, windowSeconds) {
        const [count, ttl] = await this.client.windowIncrement(key, Math.round(windowSeconds * 1000));
        return { count: Number(count), resetAt: Date.now() + Number(ttl) };
    }
    async ping() {
        await this.client.ping();
    }
    /** Removes every key under this store's prefix, and nothing else in the Redis database. */
    async clear() {
        let cursor = '0';
        do {
            // SCAN does not apply ioredis's keyPrefix to its pattern, and returns full key names.
            const [next, found] = await this.client.scan(cursor, 'MATCH', `${this.keyPrefix}*`, 'COUNT', 500);
            cursor = next;
            if (found.length > 0)
                await this.client.del(...found.map((key) => key.slice(this.keyPrefix.length)));
        } while (cursor !== '0');
    }
    async close() {
        this.client.disconnect();
    }
}
exports.RedisStore = RedisStore;
//# sourceMappingURL=redis-store.js.map