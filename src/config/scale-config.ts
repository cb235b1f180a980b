/**
 * The environment of CONTRACT 13's "beyond one process": a Redis Sentinel set or Cluster, MySQL read
 * replicas. Checked here as a whole (the variables depend on each other); config.ts names the first problem.
 */

/** `host:port` entries, comma-separated (IPv4, names; the port required). */
const NODE_LIST = /^[A-Za-z0-9.-]+:\d{1,5}(,[A-Za-z0-9.-]+:\d{1,5})*$/;
/** `redis+sentinel://[user:password@]host:port[,host:port…]/mastername`. */
const SENTINEL_URL = /^redis\+sentinel:\/\/([^@/]+@)?[A-Za-z0-9.-]+:\d{1,5}(,[A-Za-z0-9.-]+:\d{1,5})*\/[A-Za-z0-9._-]+$/;

export const REDIS_URL_RULE = {
  test: (v: string | undefined) => v === undefined || /^rediss?:\/\//.test(v) || SENTINEL_URL.test(v),
  message: 'must be a redis:// or rediss:// URL, or redis+sentinel://host:port,host:port/mastername',
};
export const CLUSTER_NODES_RULE = {
  test: (v: string | undefined) => v === undefined || NODE_LIST.test(v.replace(/\s+/g, '')),
  message: 'must be host:port entries separated by commas',
};
export const READ_URLS_RULE = {
  test: (v: string | undefined) => v === undefined || v.split(',').every((url) => /^(mysql|mariadb):\/\/[^\s]+$/.test(url.trim())),
  message: 'must be mysql:// or mariadb:// URLs separated by commas',
};

export interface ScaleTargets {
  /** The store's address: redis://, rediss://, redis+sentinel://, or redis+cluster://host:port,… from REDIS_CLUSTER_NODES. */
  redisUrl: string | undefined;
  databaseReadUrls: string[];
}

/** The store address and read replicas, or the message of the first combination that cannot work. */
export function scaleTargets(e: {
  DATABASE_URL?: string;
  REDIS_URL?: string;
  REDIS_CLUSTER_NODES?: string;
  DATABASE_READ_URLS?: string;
}): ScaleTargets | string {
  if (e.REDIS_URL && e.REDIS_CLUSTER_NODES) return 'REDIS_URL and REDIS_CLUSTER_NODES name two stores: set one of them';
  const readUrls = (e.DATABASE_READ_URLS ?? '').split(',').map((url) => url.trim()).filter((url) => url !== '');
  if (readUrls.length > 0 && !/^(mysql|mariadb):/.test(e.DATABASE_URL ?? '')) return 'DATABASE_READ_URLS needs a mysql:// or mariadb:// DATABASE_URL';
  const cluster = e.REDIS_CLUSTER_NODES?.replace(/\s+/g, '');
  return { redisUrl: cluster ? `redis+cluster://${cluster}` : e.REDIS_URL, databaseReadUrls: readUrls };
}
