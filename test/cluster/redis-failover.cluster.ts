import assert from 'node:assert/strict';
import { startService, type ServiceProcess } from '../support/service-process';
import { call, randomIp, scratchDatabase, type CallResult, type ScratchDatabase } from '../support/processes';
import { uniqueEmail } from '../support/context';
import { redisCli, startRedisCluster, startRedisSentinelSet, type RedisCluster, type RedisProcess, type RedisSentinelSet } from '../support/redis-topologies';

const PASSWORD = 'failover-password-123';
/**
 * The store's 1 s timeout (counted from the call) plus the rest of the request (a sign-in hashes), on a two-core
 * machine that also runs six Redis servers, the service and the load: a request that waited on a dead master
 * without that timeout would wait for the failover (seconds) or forever.
 */
const MAX_WAIT_MS = 2000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as { jti: string; sid: string };

interface LoadReport {
  requests: number;
  unavailable: number;
  failures: string[];
  slowest: number;
}

/**
 * The topology under test, as the failover scenario needs it: where a key lives, the replica that takes
 * over, how to kill the one and tell when the other serves.
 */
interface Topology {
  env: Record<string, string | undefined>;
  masterOf(key: string): Promise<RedisProcess>;
  replicaOf(master: RedisProcess): Promise<RedisProcess>;
  kill(server: RedisProcess): Promise<void>;
  /** Resolves once the replica serves as master for the dead one's keys. */
  failedOver(dead: RedisProcess, replica: RedisProcess): Promise<void>;
  /** The value of a key (as stored, prefix included) read from whichever master serves it now. */
  read(key: string): Promise<string>;
  stop(): Promise<void>;
}

async function clusterTopology(): Promise<Topology> {
  const cluster: RedisCluster = await startRedisCluster();
  return {
    env: { REDIS_URL: undefined, REDIS_CLUSTER_NODES: cluster.nodes },
    masterOf: async (key) => cluster.server(await cluster.masterOf(key)),
    replicaOf: async (master) => cluster.server(await cluster.replicaOf(master.port)),
    kill: (server) => cluster.kill(server.port),
    failedOver: (dead) => cluster.waitHealthy(dead.port),
    read: async (key) => redisCli(await cluster.masterOf(key), 'get', key),
    stop: () => cluster.stop(),
  };
}

async function sentinelTopology(): Promise<Topology> {
  const set: RedisSentinelSet = await startRedisSentinelSet();
  const current = async () => {
    const port = await set.currentMaster();
    return port === set.master.port ? set.master : set.replica;
  };
  return {
    env: { REDIS_URL: set.url, REDIS_CLUSTER_NODES: undefined },
    masterOf: () => current(),
    replicaOf: async (master) => (master === set.master ? set.replica : set.master),
    kill: (server) => set.kill(server),
    async failedOver(_dead, replica) {
      const deadline = Date.now() + 30_000;
      while ((await set.currentMaster()) !== replica.port || !(await redisCli(replica.port, 'role')).startsWith('master')) {
        assert.ok(Date.now() < deadline, 'the sentinels never promoted the replica');
        await sleep(200);
      }
    },
    read: async (key) => redisCli((await current()).port, 'get', key),
    stop: () => set.stop(),
  };
}

for (const [name, start] of [
  ['Cluster (three masters with a replica each)', clusterTopology],
  ['Sentinel set (a master, a replica, three sentinels)', sentinelTopology],
] as const) {
  describe(`Redis ${name}: the master holding a session's keys is killed under load`, function () {
    this.timeout(240_000);
    let topology: Topology | undefined;
    let db: ScratchDatabase | undefined;
    let service: ServiceProcess | undefined;
    let base = '';
    const email = uniqueEmail('failover');

    before(async () => {
      topology = await start();
      db = await scratchDatabase('failover');
      service = await startService({ DATABASE_URL: db.url, ...topology.env, TRUST_PROXY: 'loopback' }, 60_000);
      base = service.baseUrl;
      assert.equal((await call(base, 'POST', '/auth/register', { body: { email, password: PASSWORD } })).status, 201);
    });

    after(async () => {
      await service?.stop();
      await topology?.stop();
      await db?.drop();
    });

    async function signIn(ip = randomIp()): Promise<CallResult> {
      return call(base, 'POST', '/auth/login', { body: { email, password: PASSWORD }, ip });
    }

    /**
     * Four clients for `ms`: each answer is the expected one or a 503 with Retry-After, and none waits past
     * MAX_WAIT_MS. No refresh of the logged-out token here: its reuse handling writes a revocation, which
     * during the outage would make the service reload the store for a reason of its own, and this test is
     * about the reload a lost connection starts.
     */
    async function underLoad(ms: number, tokens: { kept: string; revoked: string }, fault: () => Promise<void>): Promise<LoadReport> {
      const report: LoadReport = { requests: 0, unavailable: 0, failures: [], slowest: 0 };
      const checks: Array<() => Promise<[string, number, CallResult]>> = [
        async () => ['GET /auth/me (signed in)', 200, await call(base, 'GET', '/auth/me', { token: tokens.kept })],
        async () => ['GET /auth/me (logged out)', 401, await call(base, 'GET', '/auth/me', { token: tokens.revoked })],
        async () => ['POST /auth/login', 200, await signIn()],
        async () => ['GET /health', 200, await call(base, 'GET', '/health')],
      ];
      const until = Date.now() + ms;
      const worker = async (offset: number) => {
        for (let i = offset; Date.now() < until; i++) {
          const [label, expected, res] = await checks[i % checks.length]();
          report.requests++;
          report.slowest = Math.max(report.slowest, res.ms);
          if (res.status === 503 && res.headers.get('retry-after')) report.unavailable++;
          else if (res.status !== expected) report.failures.push(`${label}: ${res.status}, expected ${expected} ${JSON.stringify(res.body)}`);
          if (res.ms > MAX_WAIT_MS) report.failures.push(`${label}: took ${res.ms} ms`);
        }
      };
      await Promise.all([worker(0), worker(1), worker(2), worker(3), fault()]);
      return report;
    }

    it('when the master dies before its replica had the last revocation, then requests are answered, the replica takes over, and the revocation holds', async () => {
      const kept = (await signIn()).body.token as string;
      const revoked = (await signIn()).body.token as string;
      assert.equal((await call(base, 'GET', '/auth/me', { token: revoked })).status, 200, 'the token works (and is cached) before its logout');

      // The session's revocation mark is the key whose loss would matter; its master is the one to kill.
      const markKey = `auth:revoked:${claimsOf(revoked).sid}`;
      const master = await topology!.masterOf(markKey);
      const replica = await topology!.replicaOf(master);
      // The replica is frozen and its link cut (a frozen process's socket would still take the bytes in), so
      // the logout's marks reach the master only: acknowledged, never replicated.
      replica.process.kill('SIGSTOP');
      await redisCli(master.port, 'client', 'kill', 'type', 'replica');
      const logout = await call(base, 'POST', '/auth/logout', { token: revoked });
      assert.equal(logout.status, 200);
      assert.equal(await topology!.read(markKey), '1', 'the master holds the mark');
      assert.equal((await call(base, 'GET', '/auth/me', { token: revoked })).status, 401);

      let failoverMs = 0;
      const report = await underLoad(8000, { kept, revoked }, async () => {
        await sleep(1000);
        const killedAt = Date.now();
        await topology!.kill(master);
        replica.process.kill('SIGCONT');
        await topology!.failedOver(master, replica);
        failoverMs = Date.now() - killedAt;
      });
      assert.ok(report.requests > 40, `only ${report.requests} requests`);
      assert.deepEqual(report.failures.slice(0, 10), [], `${report.failures.length} of ${report.requests} failed (${report.unavailable} were 503)`);
      assert.ok(failoverMs > 0, 'the failover completed under load');
      process.stdout.write(`      failover ${failoverMs} ms; ${report.requests} requests, ${report.unavailable} answered 503, slowest ${report.slowest} ms\n`);

      // After the failover: the revocation still holds (the service copied it from the database again), the
      // rest works through Redis, and the shared rate limit counts exactly again.
      assert.equal((await call(base, 'GET', '/auth/me', { token: revoked })).status, 401, 'the revocation was not lost');
      assert.equal((await call(base, 'POST', '/auth/refresh', { token: revoked })).status, 401);
      assert.equal((await call(base, 'GET', '/auth/me', { token: kept })).status, 200);
      const deadline = Date.now() + 15_000;
      while ((await topology!.read(markKey)) !== '1') {
        assert.ok(Date.now() < deadline, 'the mark is back in Redis');
        await sleep(200);
      }
      const ip = randomIp();
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await signIn(ip)).status);
      assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429], 'the login limit counts exactly again');
      assert.ok(Number(await topology!.read(`auth:rl:login:${ip}`)) >= 5, 'in Redis, where every instance shares it');
    });
  });
}
