import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ctx } from './context';

const ROOT = path.resolve(__dirname, '..', '..');

export interface LogLine {
  msg?: string;
  level?: number;
  [key: string]: unknown;
}

/** The service as its own process (`src/server.ts` through tsx), on a free loopback port. */
export interface ServiceProcess {
  child: ChildProcess;
  port: number;
  baseUrl: string;
  logs: LogLine[];
  /** Resolves with the first log line (already written or still to come) that matches. */
  waitForLog(match: (line: LogLine) => boolean, timeoutMs?: number): Promise<LogLine>;
  /** Resolves with the exit code (null when killed by a signal) once the process is gone. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
  /** Kills the process if it is still running (SIGKILL) and waits for it. */
  stop(): Promise<void>;
}

/**
 * Starts `src/server.ts` with the test run's environment (its scratch database and store) plus `env`,
 * LOG_LEVEL info on stdout, PORT=0, HOST=127.0.0.1; resolves once it logged `listening`.
 */
export async function startService(env: Record<string, string | undefined> = {}, startTimeoutMs = 30_000): Promise<ServiceProcess> {
  const merged: Record<string, string> = {};
  for (const [key, value] of Object.entries({ ...process.env, ...ctx().env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env })) {
    if (value !== undefined) merged[key] = value;
  }
  const tsx = require.resolve('tsx/cjs');
  const child = spawn(process.execPath, ['--require', tsx, path.join(ROOT, 'src', 'server.ts')], {
    cwd: ROOT,
    env: merged,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: LogLine[] = [];
  const waiters: Array<{ match: (line: LogLine) => boolean; resolve: (line: LogLine) => void }> = [];
  let stderr = '';
  let pending = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    pending += chunk;
    let newline: number;
    while ((newline = pending.indexOf('\n')) !== -1) {
      const text = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      let line: LogLine;
      try {
        line = JSON.parse(text) as LogLine;
      } catch {
        line = { msg: text };
      }
      logs.push(line);
      for (const waiter of [...waiters]) {
        if (waiter.match(line)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(line);
        }
      }
    }
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal, at: Date.now() }));
  });

  const waitForLog = (match: (line: LogLine) => boolean, timeoutMs = 10_000): Promise<LogLine> => {
    const seen = logs.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise<LogLine>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no matching log line within ${timeoutMs} ms; stderr: ${stderr.slice(-2000)}`)), timeoutMs);
      waiters.push({
        match,
        resolve: (line) => {
          clearTimeout(timer);
          resolve(line);
        },
      });
    });
  };

  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  };

  const listening = await Promise.race([
    waitForLog((line) => line.msg === 'listening', startTimeoutMs),
    exited.then(({ code }) => {
      throw new Error(`service exited (${code}) before listening: ${stderr.slice(-2000)}`);
    }),
  ]).catch(async (err: unknown) => {
    await stop();
    throw err;
  });
  const port = Number(listening.port);
  return { child, port, baseUrl: `http://127.0.0.1:${port}`, logs, waitForLog, exited, stop };
}

/**
 * How many connections wait in the kernel's accept queue of a loopback listener (Linux /proc/net/tcp;
 * 0 where it cannot be read). 0 means the service has accepted every connection made so far.
 */
export function acceptQueueLength(port: number): number {
  const row = listenerRow(port);
  return row ? parseInt(row[4].split(':')[1], 16) : 0;
}

/** Whether a loopback listener on the port exists ('unknown' where /proc/net/tcp cannot be read). */
export function listenerState(port: number): 'listening' | 'closed' | 'unknown' {
  if (!fs.existsSync('/proc/net/tcp')) return 'unknown';
  return listenerRow(port) ? 'listening' : 'closed';
}

/** The LISTEN row (fields: sl, local_address, rem_address, st, tx_queue:rx_queue, …) of a port. */
function listenerRow(port: number): string[] | undefined {
  let table: string;
  try {
    table = fs.readFileSync('/proc/net/tcp', 'utf8');
  } catch {
    return undefined;
  }
  const localPort = port.toString(16).toUpperCase().padStart(4, '0');
  for (const row of table.split('\n').slice(1)) {
    const fields = row.trim().split(/\s+/);
    // State 0A is LISTEN; its rx_queue is the accept backlog.
    if (fields.length > 4 && fields[1].endsWith(`:${localPort}`) && fields[3] === '0A') return fields;
  }
  return undefined;
}
