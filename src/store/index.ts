import type { Logger } from 'pino';
import type { KeyValueStore } from './key-value-store';
import { MemoryStore } from './memory-store';

export type { KeyValueStore, CounterState } from './key-value-store';

/** Redis when REDIS_URL is set, else the in-process store. A Redis that is down at start is retried. */
export async function createStore(redisUrl: string | undefined, logger: Logger, keyPrefix?: string): Promise<KeyValueStore> {
  if (!redisUrl) {
    logger.info('REDIS_URL not set: using the in-process key-value store (run one instance only)');
    return new MemoryStore();
  }
  // ioredis is loaded only when configured: the embedded default starts faster and smaller without it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { RedisStore } = require('./redis-store') as typeof import('./redis-store');
  const store = new RedisStore(redisUrl, { keyPrefix });
  try {
    await store.connect();
    logger.info('connected to Redis');
  } catch (err) {
    logger.error({ err: (err as Error).message }, 'Redis is unreachable at start; continuing and retrying');
  }
  return store;
}
