import Redis, { Cluster, type RedisOptions } from 'ioredis';

/**
 * Error replies that mean "no master here right now", not "this command is wrong": a failover in progress
 * (CLUSTERDOWN, TRYAGAIN, MASTERDOWN), a demoted master still connected (READONLY), a node loading its data
 * (LOADING). A request meeting one is answered like one meeting an unreachable Redis (503 with Retry-After,
 * or the path's own fallback), never 500.
 */
export const FAILOVER_REPLY = /^(CLUSTERDOWN|TRYAGAIN|MASTERDOWN|READONLY|LOADING|MOVED|ASK)\b/;

export type RedisTopology = 'single' | 'sentinel' | 'cluster';

export interface RedisConnectionOptions {
  keyPrefix: string;
  connectTimeout: number;
  /** Called whenever a connection that may have held writes is lost (see RedisStore.onPossibleLoss). */
  onConnectionLost: () => void;
}

function hostPort(entry: string): { host: string; port: number } {
  const at = entry.lastIndexOf(':');
  return { host: entry.slice(0, at), port: Number(entry.slice(at + 1)) };
}

/**
 * One ioredis client for REDIS_URL's three forms: `redis://`/`rediss://` (one server), `redis+sentinel://
 * [user:password@]host:port,…/mastername` (the current master, asked of the sentinels at every connect),
 * `redis+cluster://host:port,…` (REDIS_CLUSTER_NODES: the slot map is read from any of them). The options are
 * the same in all three: no offline queue and no retries per command (a call fails fast and the caller decides),
 * reconnection in the background, auto-pipelining.
 */
export function createRedisClient(url: string, options: RedisConnectionOptions): { client: Redis | Cluster; topology: RedisTopology } {
  const common: RedisOptions = {
    keyPrefix: options.keyPrefix,
    connectTimeout: options.connectTimeout,
    maxRetriesPerRequest: 0,
    // A master demoted by a failover answers writes with READONLY: reconnect, to whatever is master now.
    reconnectOnError: (err) => (/^READONLY\b/.test(err.message) ? 1 : false),
  };
  if (url.startsWith('redis+cluster://')) {
    const nodes = url.slice('redis+cluster://'.length).split(',').map(hostPort);
    const client = new Cluster(nodes, {
      keyPrefix: options.keyPrefix,
      lazyConnect: true,
      enableOfflineQueue: false,
      enableAutoPipelining: true,
      // Reads from masters only: a replica may lag, and a revocation read must see the write before it.
      scaleReads: 'master',
      // A slot whose master died is served again as soon as a replica is promoted and the map is re-read.
      retryDelayOnFailover: 100,
      retryDelayOnClusterDown: 100,
      retryDelayOnTryAgain: 100,
      slotsRefreshTimeout: options.connectTimeout,
      slotsRefreshInterval: 2000,
      clusterRetryStrategy: (attempt) => Math.min(attempt * 200, 2000),
      redisOptions: common,
    });
    client.on('+node', (node: Redis) => node.on('close', options.onConnectionLost));
    return { client, topology: 'cluster' };
  }
  let client: Redis;
  let topology: RedisTopology = 'single';
  if (url.startsWith('redis+sentinel://')) {
    const rest = url.slice('redis+sentinel://'.length);
    const slash = rest.lastIndexOf('/');
    const authority = rest.slice(0, slash);
    const name = rest.slice(slash + 1);
    const at = authority.lastIndexOf('@');
    const hosts = authority.slice(at + 1);
    const [username, password] = at < 0 ? [] : authority.slice(0, at).split(':').map((part) => decodeURIComponent(part));
    client = new Redis({
      ...common,
      sentinels: hosts.split(',').map(hostPort),
      name,
      username: username || undefined,
      password: password || undefined,
      // Sentinels announce a new master at once (+switch-master): connections move without waiting for an error.
      failoverDetector: true,
      sentinelRetryStrategy: (attempt) => Math.min(attempt * 200, 2000),
      lazyConnect: true,
      enableOfflineQueue: false,
      enableAutoPipelining: true,
      retryStrategy: (attempt) => Math.min(attempt * 100, 1000),
    });
    topology = 'sentinel';
  } else {
    client = new Redis(url, { ...common, lazyConnect: true, enableOfflineQueue: false, enableAutoPipelining: true, retryStrategy: (attempt) => Math.min(attempt * 200, 2000) });
  }
  client.on('close', options.onConnectionLost);
  return { client, topology };
}
