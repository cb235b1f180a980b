import crypto from 'node:crypto';
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { startWorkerJobs, type WorkerJobs } from '../util/worker-jobs';

/** The nice value of a hashing thread: below the event loop's (0), never so low that hashing starves under other load. */
const HASHING_NICE = 10;

/**
 * The code of one hashing thread: PBKDF2 jobs in, keys out, one at a time in arrival order. A thread with
 * jobs waiting takes the next as soon as it finishes one, without waiting for the main thread's event loop.
 * Inline (not a file) so the same code runs under tsx in tests and from dist/ in production.
 */
const THREAD_CODE = `
const { parentPort } = require('node:worker_threads');
const { pbkdf2Sync } = require('node:crypto');
// On Linux a thread's nice value is its own: hashing yields the cores to the event loop when both are wanted, so a
// machine busy hashing still answers its other requests on time (issue 51). Where it cannot be set, nothing changes.
try { require('node:os').setPriority(0, ${HASHING_NICE}); } catch {}
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
 * A thread is stopped after this long without a job: two of them hold about 15 MiB, which an idle service should
 * not (the first hashes after a quiet spell pay about 20 ms to start them again).
 */
const IDLE_STOP_MS = 15_000;

/** After a thread ended on its own (a crash, memory), hashes go to libuv's pool this long before a thread is tried again. */
const FAILED_BACKOFF_MS = 10_000;

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
 * hand-over to wait for), and each stops IDLE_STOP_MS after its last job.
 */
export function createHashThreads(options: { count?: number; idleStopMs?: number } = {}) {
  const { count = os.availableParallelism(), idleStopMs = IDLE_STOP_MS } = options;
  const threads: WorkerJobs<Pbkdf2Job, Buffer>[] = [];
  /** Until when hashes skip the threads because one ended on its own (a thread that cannot start would otherwise be retried per hash). */
  let poolUntil = 0;
  /** Hashes running on libuv's pool now. */
  let onPoolNow = 0;

  /** A hash on libuv's pool, at the process's own priority (nice 0, not the threads' 10). */
  function onPool(job: Pbkdf2Job): Promise<Buffer> {
    onPoolNow += 1;
    return new Promise<Buffer>((resolve, reject) => {
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
    });
  }

  function start(): WorkerJobs<Pbkdf2Job, Buffer> {
    // Plain JavaScript with no flags of the process (a test's `--require tsx`, say): nothing to load but node:crypto.
    const worker = new Worker(THREAD_CODE, { eval: true, execArgv: [], resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 2 } });
    const thread = startWorkerJobs<Pbkdf2Job, Buffer>({
      worker,
      answer: (reply) => {
        const key = reply.key;
        return key instanceof Uint8Array ? Buffer.from(key.buffer, key.byteOffset, key.byteLength) : new Error(`hashing failed: ${String(reply.error ?? 'unknown error')}`);
      },
      // A thread that ended under its jobs leaves them to libuv's pool: slower for the event loop's neighbours, but
      // every sign-in waiting on it still gets its answer.
      instead: onPool,
      idleStopMs,
      onGone: (how) => {
        const at = threads.indexOf(thread);
        if (at >= 0) threads.splice(at, 1);
        if (how === 'failed') poolUntil = Date.now() + FAILED_BACKOFF_MS;
      },
    });
    threads.push(thread);
    return thread;
  }

  /** The thread with the fewest jobs; a new one while fewer than `count` run. */
  function leastBusy(): WorkerJobs<Pbkdf2Job, Buffer> {
    let best: WorkerJobs<Pbkdf2Job, Buffer> | undefined;
    for (const thread of threads) if (!best || thread.pending() < best.pending()) best = thread;
    return best && (best.pending() === 0 || threads.length >= count) ? best : start();
  }

  function derive(job: Pbkdf2Job): Promise<Buffer> {
    // A lone hash runs on libuv's pool: the threads are for load, where hashes queue (a service signing in one
    // user now and then neither holds their memory nor waits about 20 ms for them to start).
    if (Date.now() < poolUntil || (threads.length === 0 && onPoolNow === 0)) return onPool(job);
    let thread: WorkerJobs<Pbkdf2Job, Buffer>;
    try {
      thread = leastBusy();
    } catch {
      // No thread could be started (the process is out of threads or memory): the pool still hashes.
      poolUntil = Date.now() + FAILED_BACKOFF_MS;
      return onPool(job);
    }
    return thread.run(job);
  }

  /** Stops every thread; their unfinished jobs are finished on libuv's pool. The next job starts them again. */
  async function stop(): Promise<void> {
    await Promise.all([...threads].map((thread) => thread.stop()));
  }

  /** How many threads run now. */
  const size = (): number => threads.length;

  return { derive, deriveOnPool: onPool, stop, size, count };
}

export type HashThreads = ReturnType<typeof createHashThreads>;
