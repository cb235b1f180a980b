"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.createStore = createStore;
const memory_store_1 = require("./memory-store");
const redis_store_1 = require("./redis-store");
/** Redis when REDIS_URL is set, else the in-process store. A Redis that is down at start is retried. */
async function createStore(redisUrl, logger, keyPrefix) {
    if (!redisUrl) {
        logger.info('REDIS_URL not set: using the in-process key-value store (run one instance only)');
        return new memory_store_1.MemoryStore();
    }
    const store = new redis_store_1.RedisStore(redisUrl, { keyPrefix });
    try {
        await store.connect();
        logger.info('connected to Redis');
    }
    catch (err) {
        logger.error({ err: err.message }, 'Redis is unreachable at start; continuing and retrying');
    }
    return store;
}
//# sourceMappingURL=index.js.map