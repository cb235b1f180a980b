import type Redis from 'ioredis';
import { ReplyError, type Cluster } from 'ioredis';
import { createRedisClient, FAILOVER_REPLY, type RedisTopology } from './redis-connection';
import { StoreUnavailableError, type CounterState, type KeyValueStore, type StoreFailures } from './key-value-store';

// INCR and the first PEXPIRE must be one step, or a crash between them leaves a counter that never resets.
const INCREMENT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) ttl = tonumber(ARGV[1]) end
return {count, ttl}
`;

/**
 * After a command fails for want of Redis (down, or no answer within the command timeout), every call
 * fails at once for this long: a frozen Redis costs one request at most one timeout, not one per call.
 */
const UNAVAILABLE_PAUSE_MS = 1000;
/**
 * The longest a call waits for Redis, counted from the call (ioredis's own command timeout is not used: it
 * starts only when a command is written, and with auto-pipelining a command waits unwritten behind a
 * pipeline that is still unanswered, so a frozen Redis would hold it for two timeouts).
 */
const COMMAND_TIMEOUT_MS = 1000;
/**
 * A command still unanswered after this long means Redis has stopped answering (a healthy one answers in
 * well under a millisecond): later calls fail at once instead of each waiting for its own timeout, so a
 * request that makes several calls in a row waits for at most one timeout even before the first one fires.
 */
const UNANSWERED_MS = 250;

type RedisWithIncrement = (Redis | Cluster) & {
  windowIncrement(key: string, windowMs: number): Promise<[number, number]>;
};

export interface RedisStoreOptions {
  /** Prefix for every key, so several deployments or test runs can share one Redis. */
  keyPrefix?: string;
}

/**
 * Redis-backed store: one server, a Sentinel set or a Cluster (see redis-connection.ts). A dead Redis makes
 * calls fail fast instead of queueing or hanging. Every command names one key (the counter script too), so
 * each lands in one slot of a cluster; `getMany` is the only multi-key read (see there).
 */
export class RedisStore implements KeyValueStore {
  readonly kind = 'redis' as const;
  readonly client: RedisWithIncrement;
  readonly topology: RedisTopology;
  readonly failures: StoreFailures = { unavailable: 0, refused: 0 };
  private readonly lossListeners: Array<() => void> = [];
  private closed = false;

  private readonly keyPrefix: string;
  private unavailableUntil = 0;
  /** The calls in flight, oldest first (a Map keeps insertion order): when each started, and how to fail it. */
  private readonly inFlight = new Map<number, { startedAt: number; fail: (err: Error) => void }>();
  private nextCommandId = 0;
  /** One timer for every call's deadline, armed for the oldest call's (see watchDeadlines). */
  private deadlineTimer: NodeJS.Timeout | null = null;

  constructor(url: string, options: RedisStoreOptions = {}) {
    this.keyPrefix = options.keyPrefix ?? 'auth:';
    // Auto-pipelining: commands issued in the same tick (concurrent requests' reads) share one write per server.
    const { client, topology } = createRedisClient(url, {
      keyPrefix: this.keyPrefix,
      connectTimeout: 2000,
      onConnectionLost: () => this.possibleLoss(),
    });
    this.client = client as RedisWithIncrement;
    this.topology = topology;
    this.client.defineCommand('windowIncrement', { numberOfKeys: 1, lua: INCREMENT_SCRIPT });
    // Errors surface on each command; without a listener ioredis would also crash the process.
    this.client.on('error', () => {});
  }

  /** Connects once at start; failure is reported, and the store keeps retrying in the background. */
  async connect(): Promise<void> {
    await this.client.connect();
  }

  async get(key: string): Promise<string | null> {
    return this.run(() => this.client.get(key));
  }

  /**
   * One MGET on a single server or a Sentinel master. On a cluster the keys of one call belong to different
   * slots (a token's cache entry, its user's version, revocation marks, the revocation set's marker), and no
   * hash tag could join them: the marker is one key for all users. So each key is a GET of its own, sent in the
   * same tick: auto-pipelining makes them one write per master, answered in parallel. Not one atomic read, which
   * no caller relies on (revocations.ts says why the marker may be read beside the marks).
   */
  async getMany(keys: readonly string[]): Promise<Array<string | null>> {
    if (keys.length === 0) return [];
    if (this.topology === 'cluster') return this.run(() => Promise.all(keys.map((key) => this.client.get(key))));
    return this.run(() => this.client.mget(...keys));
  }

  async set(key: string, value: string, ttlSeconds?: number): Promise<void> {
    await this.run(() =>
      ttlSeconds === undefined
        ? this.client.set(key, value)
        : this.client.set(key, value, 'PX', Math.max(1, Math.round(ttlSeconds * 1000))),
    );
  }

  async setIfAbsent(key: string, value: string, ttlSeconds: number): Promise<boolean> {
    const result = await this.run(() => this.client.set(key, value, 'PX', Math.max(1, Math.round(ttlSeconds * 1000)), 'NX'));
    return result === 'OK';
  }

  async delete(key: string): Promise<void> {
    await this.run(() => this.client.del(key));
  }

  async take(key: string): Promise<string | null> {
    return this.run(() => this.client.getdel(key));
  }

  async increment(key: string, windowSeconds: number): Promise<CounterState> {
    const [count, ttl] = await this.run(() => this.client.windowIncrement(key, Math.round(windowSeconds * 1000)));
    return { count: Number(count), resetAt: Date.now() + Number(ttl) };
  }

  async ping(): Promise<void> {
    await this.run(() => this.client.ping());
  }

  /**
   * The ioredis calls connect-redis makes (express-session's store), through the same guard as every other
   * call: a frozen Redis holds a session request for at most one timeout, and a known outage fails it at once.
   */
  sessionClient() {
    const client = this.client as unknown as Record<'get' | 'set' | 'del' | 'expire' | 'mget' | 'scan', (...args: unknown[]) => Promise<unknown>>;
    const guarded =
      (name: keyof typeof client) =>
      (...args: unknown[]) =>
        this.run(() => client[name](...args));
    return { get: guarded('get'), set: guarded('set'), del: guarded('del'), expire: guarded('expire'), mget: guarded('mget'), scan: guarded('scan') };
  }

  /**
   * Registers a listener for "the store may have lost writes it acknowledged": a connection to a server that
   * held data closed, or a call found Redis unavailable. Replication is asynchronous, so a master that dies
   * (and the replica promoted in its place) may lack its last writes; revocations reload their copy then.
   */
  onPossibleLoss(listener: () => void): void {
    this.lossListeners.push(listener);
  }

  private possibleLoss(): void {
    if (this.closed) return;
    for (const listener of this.lossListeners) listener();
  }

  /** Runs one command, failing at once while Redis is known to be unavailable; a Redis error reply is no outage, but a failover's is. */
  private async run<T>(command: () => Promise<T>): Promise<T> {
    const now = Date.now();
    if (now < this.unavailableUntil) return this.unavailable(new StoreUnavailableError('Redis unavailable (recent failure), not tried'));
    const oldest = this.inFlight.values().next().value;
    if (oldest !== undefined && now - oldest.startedAt > UNANSWERED_MS) return this.unavailable(new StoreUnavailableError('Redis not answering, not tried'));
    const id = this.nextCommandId++;
    try {
      return await new Promise<T>((resolve, reject) => {
        this.inFlight.set(id, { startedAt: now, fail: reject });
        this.watchDeadlines();
        command().then(resolve, reject);
      });
    } catch (err) {
      if (err instanceof ReplyError && !FAILOVER_REPLY.test((err as Error).message)) {
        this.failures.refused++;
        throw err;
      }
      this.unavailableUntil = Date.now() + UNAVAILABLE_PAUSE_MS;
      this.possibleLoss();
      return this.unavailable(err instanceof StoreUnavailableError ? err : new StoreUnavailableError(`Redis unavailable: ${(err as Error).message}`, { cause: err }));
    } finally {
      this.inFlight.delete(id);
    }
  }

  /**
   * Fails each call still unanswered COMMAND_TIMEOUT_MS after it started. One timer serves them all: it is
   * armed for the oldest call's deadline and, when it fires, fails whatever is overdue and is armed again
   * for the oldest call left. A healthy Redis answers long before, so the timer fires about once a timeout
   * instead of being set and cleared for every call (a timer per call, ours and ioredis's, was measurable on
   * `/auth/me`: docs/benchmarks.md, round three, sixth pass).
   */
  private watchDeadlines(): void {
    if (this.deadlineTimer !== null) return;
    const oldest = this.inFlight.values().next().value;
    if (oldest === undefined) return;
    this.deadlineTimer = setTimeout(() => {
      this.deadlineTimer = null;
      const now = Date.now();
      for (const [id, call] of this.inFlight) {
        if (now - call.startedAt < COMMAND_TIMEOUT_MS) break;
        this.inFlight.delete(id);
        call.fail(new StoreUnavailableError(`Redis did not answer within ${COMMAND_TIMEOUT_MS} ms`));
      }
      this.watchDeadlines();
    }, Math.max(0, oldest.startedAt + COMMAND_TIMEOUT_MS - Date.now()));
  }

  private unavailable(err: StoreUnavailableError): never {
    this.failures.unavailable++;
    throw err;
  }

  /** Removes every key under this store's prefix, and nothing else in the Redis database. */
  async clear(): Promise<void> {
    const servers = this.topology === 'cluster' ? (this.client as Cluster).nodes('master') : [this.client as Redis];
    for (const server of servers) {
      let cursor = '0';
      do {
        // SCAN does not apply ioredis's keyPrefix to its pattern, and returns full key names.
        const [next, found] = await server.scan(cursor, 'MATCH', `${this.keyPrefix}*`, 'COUNT', 500);
        cursor = next;
        // Each key on its own: on a cluster, one DEL of several keys must keep them in one slot.
        const names = found.map((key) => key.slice(this.keyPrefix.length));
        if (this.topology === 'cluster') await Promise.all(names.map((key) => this.client.del(key)));
        else if (names.length > 0) await this.client.del(...names);
      } while (cursor !== '0');
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.deadlineTimer !== null) clearTimeout(this.deadlineTimer);
    this.client.disconnect();
  }
}
