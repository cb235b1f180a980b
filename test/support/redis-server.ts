import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { RedisStore } from '../../src/store/redis-store';
import { closedPort } from './ports';

/** A private redis-server for fault tests: its URL and process (never the shared Redis on 6379). */
export interface PrivateRedis {
  url: string;
  port: number;
  process: ChildProcess;
}

/** Whether a redis-server binary is installed (fault tests skip without one). */
export function redisServerAvailable(): boolean {
  return spawnSync('redis-server', ['--version']).status === 0;
}

/** Starts a redis-server without persistence on the port (a spare one by default) and waits until it answers. */
export async function startRedis(port?: number): Promise<PrivateRedis> {
  const chosen = port ?? (await closedPort());
  const child = spawn('redis-server', ['--port', String(chosen), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no'], {
    stdio: 'ignore',
  });
  const url = `redis://127.0.0.1:${chosen}`;
  const deadline = Date.now() + 5000;
  for (;;) {
    const probe = new RedisStore(url, { keyPrefix: 'probe:' });
    try {
      await probe.connect();
      await probe.ping();
      return { url, port: chosen, process: child };
    } catch (err) {
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw err;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      await probe.close();
    }
  }
}

/** Resolves once the process has exited. */
export function stopped(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Kills the server (SIGKILL) and waits for it to be gone. */
export async function killRedis(redis: PrivateRedis): Promise<void> {
  redis.process.kill('SIGKILL');
  await stopped(redis.process);
}
