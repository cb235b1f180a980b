import type { Logger } from 'pino';
import type { KeyValueStore } from './key-value-store';
export type { KeyValueStore, CounterState } from './key-value-store';
/** Redis when REDIS_URL is set, else the in-process store. A Redis that is down at start is retried. */
export declare function createStore(redisUrl: string | undefined, logger: Logger, keyPrefix?: string): Promise<KeyValueStore>;
