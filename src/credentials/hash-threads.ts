import crypto from 'node:crypto';
import os from 'node:os';
import { Worker } from 'node:worker_threads';

/**
 * The code of one hashing thread: PBKDF2 jobs in, keys out, one at a time in arrival order. A thread with
 * jobs waiting takes the next as soon as it finishes one, without waiting for the main thread's event loop.
 * Inline (not a file) so the same code runs under tsx in tests and from dist/ in production.
 */
const THREAD_CODE = `
const { parentPort } = require('node:worker_threads');
const { pbkdf2Sync } = require('node:crypto');
parentPort.on('message', (job) => {
  try {
    const key = pbkdf2Sync(job.password, job.salt, job.rounds, job.keyBytes, job.digest);
    parentPort.postMessage({ id: job.id, key }, [key.buffer]);
  } catch (err) {
    parentPort.postMessage({ id: job.id, error: String(err && err.message) });
  }
});
`;

/**
 * Threads are stopped after this long without a job: two of them hold about 15 MiB, which an idle service should
 * not (the first hash after a quiet spell pays about 20 ms to start them again).
 */
const IDLE_STOP_MS = 15_000;

/** After a thread ended on its own (a crash, memory), hashes go to libuv's pool this long before a thread is tried again. */
const FAILED_BACKOFF_MS = 10_000;

interface Job {
  job: Pbkdf2Job;
  resolve: (key: Buffer) => void;
  reject: (err: Error) => void;
}

interface HashThread {
  worker: Worker;
  jobs: Map<number, Job>;
}

export interface Pbkdf2Job {
  password: string;
  salt: Buffer;
  rounds: number;
  keyBytes: number;
  digest: string;
}

/**
 * PBKDF2 on threads of its own, one per core, instead of libuv's pool (issue 34). On the pool, a hash
 * finishing could only be followed by the next once the event loop had run its callback and queued the next,
 * and each queued hash woke an idle pool thread, which the scheduler often ran on the event loop's own core
 * (the call that queued it then took up to milliseconds). Here every job is posted at once to the thread
 * with the fewest, so a busy thread always has its next job waiting, and SQLite no longer queues behind hashes.
 * The threads start when a hash arrives while another is running (a lone hash runs on the pool, where it has no
 * hand-over to wait for) and stop IDLE_STOP_MS after their last job.
 */
export function createHashThreads(options: { count?: number; idleStopMs?: number } = {}) {
  const { count = os.availableParallelism(), idleStopMs = IDLE_STOP_MS } = options;
  const threads: HashThread[] = [];
  let nextId = 0;
  let idleTimer: NodeJS.Timeout | null = null;
  /** Until when hashes skip the threads because one ended on its own (a thread that cannot start would otherwise be retried per hash). */
  let poolUntil = 0;

  /** Hashes running on libuv's pool now. */
  let onPoolNow = 0;

  function onPool({ job, resolve, reject }: Job): void {
    onPoolNow += 1;
    const settle = (err: Error | null, key?: Buffer) => {
      onPoolNow -= 1;
      if (err) reject(err);
      else resolve(key as Buffer);
    };
    try {
      crypto.pbkdf2(job.password, job.salt, job.rounds, job.keyBytes, job.digest, settle);
    } catch (err) {
      // An argument node:crypto refuses up front (an unknown digest, say) fails this job alone.
      settle(new Error(`hashing failed: ${(err as Error).message}`));
    }
  }

  /**
   * A thread that ended (stopped, crashed, out of memory) hands its jobs to libuv's pool: slower for the event
   * loop's neighbours, but every sign-in waiting on it still gets its answer.
   */
  function handOver(thread: HashThread): void {
    const at = threads.indexOf(thread);
    // Still listed: it ended on its own (stop() unlists the threads it ends).
    if (at >= 0) {
      threads.splice(at, 1);
      poolUntil = Date.now() + FAILED_BACKOFF_MS;
    }
    for (const waiting of thread.jobs.values()) onPool(waiting);
    thread.jobs.clear();
    // The threads left may have nothing to do, and no reply of theirs will arm the idle stop.
    if (threads.length > 0 && totalJobs() === 0) stopWhenIdle();
  }

  function start(): HashThread {
    // Plain JavaScript with no flags of the process (a test's `--require tsx`, say): nothing to load but node:crypto.
    const worker = new Worker(THREAD_CODE, { eval: true, execArgv: [], resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 2 } });
    const thread: HashThread = { worker, jobs: new Map() };
    // Only a thread with jobs keeps the process alive (a seeder hashing a password must wait for it; an idle thread must not).
    worker.unref();
    worker.on('message', (reply: { id: number; key?: Uint8Array; error?: string }) => {
      const job = thread.jobs.get(reply.id);
      if (!job) return;
      thread.jobs.delete(reply.id);
      if (thread.jobs.size === 0) worker.unref();
      if (reply.key) job.resolve(Buffer.from(reply.key.buffer, reply.key.byteOffset, reply.key.byteLength));
      else job.reject(new Error(`hashing failed: ${reply.error ?? 'unknown error'}`));
      if (totalJobs() === 0) stopWhenIdle();
    });
    worker.on('error', () => handOver(thread));
    worker.on('exit', () => handOver(thread));
    threads.push(thread);
    return thread;
  }

  function totalJobs(): number {
    return threads.reduce((sum, thread) => sum + thread.jobs.size, 0);
  }

  function stopWhenIdle(): void {
    idleTimer ??= setTimeout(() => {
      idleTimer = null;
      if (totalJobs() === 0) void stop();
    }, idleStopMs).unref();
  }

  /** The thread with the fewest jobs; a new one while fewer than `count` run. */
  function leastBusy(): HashThread {
    let best: HashThread | undefined;
    for (const thread of threads) if (!best || thread.jobs.size < best.jobs.size) best = thread;
    return best && (best.jobs.size === 0 || threads.length >= count) ? best : start();
  }

  function derive(job: Pbkdf2Job): Promise<Buffer> {
    return new Promise<Buffer>((resolve, reject) => {
      const waiting: Job = { job, resolve, reject };
      // A lone hash runs on libuv's pool: the threads are for load, where hashes queue (a service signing in one
      // user now and then neither holds their memory nor waits about 20 ms for them to start).
      if (Date.now() < poolUntil || (threads.length === 0 && onPoolNow === 0)) return onPool(waiting);
      let thread: HashThread;
      try {
        thread = leastBusy();
      } catch {
        // No thread could be started (the process is out of threads or memory): the pool still hashes.
        poolUntil = Date.now() + FAILED_BACKOFF_MS;
        return onPool(waiting);
      }
      // Only a job for the threads keeps them from their idle stop.
      if (idleTimer) {
        clearTimeout(idleTimer);
        idleTimer = null;
      }
      const id = nextId++;
      if (thread.jobs.size === 0) thread.worker.ref();
      thread.jobs.set(id, waiting);
      thread.worker.postMessage({ id, ...job });
    });
  }

  /** Stops every thread; their unfinished jobs are finished on libuv's pool. The next job starts them again. */
  async function stop(): Promise<void> {
    const stopping = threads.splice(0);
    await Promise.all(stopping.map((thread) => thread.worker.terminate()));
  }

  /** How many threads run now. */
  const size = (): number => threads.length;

  return { derive, stop, size };
}

export type HashThreads = ReturnType<typeof createHashThreads>;
