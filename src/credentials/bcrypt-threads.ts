import os from 'node:os';
import { Worker } from 'node:worker_threads';
import bcrypt from 'bcryptjs';
import { startWorkerJobs, type WorkerJobs } from '../util/worker-jobs';

/**
 * The code of one bcrypt thread: bcryptjs's synchronous compare, one job at a time. Inline (not a file) so the same
 * code runs under tsx in tests and from dist/ in production; bcryptjs is loaded from the path the main thread
 * resolved, so the thread needs no module resolution of its own.
 */
const THREAD_CODE = `
const { parentPort, workerData } = require('node:worker_threads');
const bcrypt = require(workerData.bcryptPath);
parentPort.on('message', (job) => {
  try {
    parentPort.postMessage({ id: job.id, ok: bcrypt.compareSync(job.password, job.hash) });
  } catch (err) {
    parentPort.postMessage({ id: job.id, error: String(err && err.message) });
  }
});
`;

/** Imported bcrypt hashes are checked once per account (then re-hashed): threads stop soon after the last one. */
const IDLE_STOP_MS = 10_000;

interface BcryptJob {
  password: string;
  hash: string;
}

/**
 * bcrypt checks on threads of their own. bcryptjs is plain JavaScript: its async API only slices the work into
 * event-loop turns (a cost-12 check still takes hundreds of milliseconds of the loop's time), so it runs here,
 * one thread per core at most, and the event loop only posts the job and reads the answer. A thread that ends
 * under its jobs hands them to the async API in this thread: slower for the neighbours, but every sign-in is answered.
 */
export function createBcryptThreads(options: { count?: number } = {}) {
  const { count = os.availableParallelism() } = options;
  const bcryptPath = require.resolve('bcryptjs');
  const threads: WorkerJobs<BcryptJob, boolean>[] = [];

  const here = (job: BcryptJob): Promise<boolean> => bcrypt.compare(job.password, job.hash);

  function start(): WorkerJobs<BcryptJob, boolean> {
    const worker = new Worker(THREAD_CODE, { eval: true, execArgv: [], workerData: { bcryptPath }, resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 2 } });
    const thread = startWorkerJobs<BcryptJob, boolean>({
      worker,
      answer: (reply) => (typeof reply.ok === 'boolean' ? reply.ok : new Error(`bcrypt failed: ${String(reply.error ?? 'unknown error')}`)),
      instead: here,
      idleStopMs: IDLE_STOP_MS,
      onGone: () => {
        const at = threads.indexOf(thread);
        if (at >= 0) threads.splice(at, 1);
      },
    });
    threads.push(thread);
    return thread;
  }

  /** Whether `password` matches the bcrypt `hash` (already parsed and bounded by foreign-hashes.ts). */
  function compare(password: string, hash: string): Promise<boolean> {
    let best: WorkerJobs<BcryptJob, boolean> | undefined;
    for (const thread of threads) if (!best || thread.pending() < best.pending()) best = thread;
    let thread = best;
    if (!thread || (thread.pending() > 0 && threads.length < count)) {
      try {
        thread = start();
      } catch {
        // No thread could be started (out of threads or memory): the async API still answers.
        if (!thread) return here({ password, hash });
      }
    }
    return thread.run({ password, hash });
  }

  async function stop(): Promise<void> {
    await Promise.all([...threads].map((thread) => thread.stop()));
  }

  return { compare, stop, size: () => threads.length };
}

export type BcryptThreads = ReturnType<typeof createBcryptThreads>;
