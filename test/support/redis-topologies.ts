import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { closedPort, closedPortPair } from './ports';
import { stopped } from './redis-server';

/**
 * A Redis Cluster and a Redis Sentinel set of the test's own, on spare loopback ports (never the shared
 * Redis on 6379), each server its own process in its own directory: a test kills, freezes and resumes them
 * by pid, and `stop` ends every one it started.
 */

const exec = promisify(execFile);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface RedisProcess {
  port: number;
  process: ChildProcess;
}

/** `redis-cli -p PORT args…`, its output trimmed ('' when the server does not answer). */
export async function redisCli(port: number, ...args: string[]): Promise<string> {
  try {
    const { stdout } = await exec('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args], { timeout: 5000 });
    return stdout.trim();
  } catch {
    return '';
  }
}

async function waitFor(what: string, test: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await test())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

function spawnRedis(dir: string, args: string[]): ChildProcess {
  return spawn('redis-server', args, { cwd: dir, stdio: 'ignore' });
}

const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

/**
 * A redis-server in its own directory under `base`, answering PING. Should it exit before it answers (its port
 * was taken between choosing and binding), it is started again on another port, so a busy host cannot fail
 * the test by a race for a port.
 */
async function startServer(base: string, choosePort: () => Promise<number>, argsFor: (port: number, dir: string) => string[]): Promise<RedisProcess> {
  for (let attempt = 1; ; attempt++) {
    const port = await choosePort();
    const dir = path.join(base, String(port));
    fs.mkdirSync(dir);
    const server = { port, process: spawnRedis(dir, argsFor(port, dir)) };
    let answered = false;
    try {
      await waitFor(`redis ${port}`, async () => exited(server.process) || (answered = (await redisCli(port, 'ping')) === 'PONG'));
    } catch (err) {
      await kill(server);
      throw err;
    }
    if (answered) return server;
    if (attempt === 5) throw new Error(`redis-server exited at start on five ports (last ${port})`);
  }
}

async function kill(server: RedisProcess): Promise<void> {
  server.process.kill('SIGCONT');
  server.process.kill('SIGKILL');
  await stopped(server.process);
}

export interface RedisCluster {
  /** REDIS_CLUSTER_NODES for the service: every node, `127.0.0.1:port` comma-separated. */
  nodes: string;
  servers: RedisProcess[];
  /** The port of the master serving the key's slot now (the key as stored, prefix included). */
  masterOf(key: string): Promise<number>;
  /** The port of a replica of the master on `port`. */
  replicaOf(port: number): Promise<number>;
  server(port: number): RedisProcess;
  kill(port: number): Promise<void>;
  /** Resolves once every live node reports cluster_state:ok and no slot is served by `deadPort`. */
  waitHealthy(deadPort?: number): Promise<void>;
  stop(): Promise<void>;
}

/** Six redis-server processes, three masters with a replica each (`redis-cli --cluster create`), node timeout 1 s. */
export async function startRedisCluster(): Promise<RedisCluster> {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'auth-redis-cluster-'));
  const servers: RedisProcess[] = [];
  const stop = async () => {
    await Promise.all(servers.map(kill));
    fs.rmSync(base, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < 6; i++) {
      servers.push(
        await startServer(base, () => closedPortPair(10_000), (port, dir) => [
          '--port', String(port), '--bind', '127.0.0.1', '--cluster-enabled', 'yes', '--cluster-config-file', 'nodes.conf',
          // Fast failover for the test; a replica may be promoted however long its link was down (a test freezes it).
          '--cluster-node-timeout', '1000', '--cluster-replica-validity-factor', '0',
          '--save', '', '--appendonly', 'no', '--dir', dir,
        ]),
      );
    }
    await exec('redis-cli', ['--cluster', 'create', ...servers.map((s) => `127.0.0.1:${s.port}`), '--cluster-replicas', '1', '--cluster-yes'], { timeout: 30_000 });
  } catch (err) {
    await stop();
    throw err;
  }

  const live = () => servers.filter((s) => s.process.exitCode === null && s.process.signalCode === null);
  const clusterNodes = async (port: number) =>
    (await redisCli(port, 'cluster', 'nodes')).split('\n').filter(Boolean).map((line) => {
      const [id, address, flags, masterId, , , , , ...slots] = line.split(' ');
      return { id, port: Number(address.split('@')[0].split(':')[1]), flags: flags.split(','), masterId, slots };
    });
  const cluster: RedisCluster = {
    nodes: servers.map((s) => `127.0.0.1:${s.port}`).join(','),
    servers,
    async masterOf(key) {
      const asker = live()[0].port;
      const slot = Number(await redisCli(asker, 'cluster', 'keyslot', key));
      const nodes = await clusterNodes(asker);
      const owner = nodes.find(
        (node) =>
          node.flags.includes('master') &&
          !node.flags.includes('fail') &&
          node.slots.some((range) => {
            const [from, to] = range.split('-').map(Number);
            return slot >= from && slot <= (to ?? from);
          }),
      );
      if (!owner) throw new Error(`no master serves slot ${slot}`);
      return owner.port;
    },
    async replicaOf(port) {
      const nodes = await clusterNodes(port);
      const master = nodes.find((node) => node.port === port)!;
      const replica = nodes.find((node) => node.masterId === master.id);
      if (!replica) throw new Error(`no replica of ${port}`);
      return replica.port;
    },
    server: (port) => servers.find((s) => s.port === port)!,
    kill: (port) => kill(cluster.server(port)),
    async waitHealthy(deadPort) {
      await waitFor('the cluster to be healthy', async () => {
        for (const server of live()) {
          if (!(await redisCli(server.port, 'cluster', 'info')).includes('cluster_state:ok')) return false;
        }
        if (deadPort === undefined) return true;
        const nodes = await clusterNodes(live()[0].port);
        return !nodes.some((node) => node.port === deadPort && node.flags.includes('master') && !node.flags.includes('fail') && node.slots.length > 0);
      }, 30_000);
    },
    stop,
  };
  await cluster.waitHealthy();
  return cluster;
}

export interface RedisSentinelSet {
  /** REDIS_URL for the service: `redis+sentinel://127.0.0.1:p1,…/m1`. */
  url: string;
  masterName: string;
  master: RedisProcess;
  replica: RedisProcess;
  sentinels: RedisProcess[];
  /** The port the sentinels name as master now. */
  currentMaster(): Promise<number>;
  kill(server: RedisProcess): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A master, one replica, and three sentinels (quorum 2) watching them: `redis-server sentinel.conf --sentinel`
 * (no redis-sentinel binary here), each config writable, since Sentinel rewrites it. Down after 1 s.
 */
export async function startRedisSentinelSet(): Promise<RedisSentinelSet> {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'auth-redis-sentinel-'));
  const masterName = 'm1';
  const all: RedisProcess[] = [];
  const stop = async () => {
    await Promise.all(all.map(kill));
    fs.rmSync(base, { recursive: true, force: true });
  };
  const dataServer = async (extra: string[]) => {
    const server = await startServer(base, closedPort, (port, dir) => ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, ...extra]);
    all.push(server);
    return server;
  };
  try {
    const master = await dataServer([]);
    const replica = await dataServer(['--replicaof', '127.0.0.1', String(master.port)]);
    await waitFor('the replica to sync', async () => (await redisCli(replica.port, 'info', 'replication')).includes('master_link_status:up'));
    const sentinels: RedisProcess[] = [];
    for (let i = 0; i < 3; i++) {
      const port = await closedPort();
      const dir = path.join(base, `sentinel-${port}`);
      fs.mkdirSync(dir);
      const conf = path.join(dir, 'sentinel.conf');
      fs.writeFileSync(
        conf,
        [
          `port ${port}`,
          'bind 127.0.0.1',
          `dir ${dir}`,
          `sentinel monitor ${masterName} 127.0.0.1 ${master.port} 2`,
          `sentinel down-after-milliseconds ${masterName} 1000`,
          `sentinel failover-timeout ${masterName} 5000`,
          `sentinel parallel-syncs ${masterName} 1`,
          '',
        ].join('\n'),
      );
      const sentinel = { port, process: spawnRedis(dir, [conf, '--sentinel']) };
      all.push(sentinel);
      sentinels.push(sentinel);
    }
    // Each sentinel knows the replica and enough of the others to authorise a failover.
    for (const sentinel of sentinels) {
      await waitFor(`sentinel ${sentinel.port}`, async () => (await redisCli(sentinel.port, 'sentinel', 'replicas', masterName)).includes(String(replica.port)));
      await waitFor(`sentinel ${sentinel.port} quorum`, async () => (await redisCli(sentinel.port, 'sentinel', 'ckquorum', masterName)).startsWith('OK 3'));
    }
    const set: RedisSentinelSet = {
      url: `redis+sentinel://${sentinels.map((s) => `127.0.0.1:${s.port}`).join(',')}/${masterName}`,
      masterName,
      master,
      replica,
      sentinels,
      async currentMaster() {
        for (const sentinel of sentinels) {
          const answer = (await redisCli(sentinel.port, 'sentinel', 'get-master-addr-by-name', masterName)).split('\n');
          if (answer.length === 2) return Number(answer[1]);
        }
        throw new Error('no sentinel answers');
      },
      kill,
      stop,
    };
    return set;
  } catch (err) {
    await stop();
    throw err;
  }
}
