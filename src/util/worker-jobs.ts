import type { Worker } from 'node:worker_threads';

/** What a worker posts back for a job: the job's id, and whatever the worker's code answers with. */
export type WorkerReply = { id: number } & Record<string, unknown>;

/** How a worker left: `stopped` by `stop()` or its idle stop; `failed` when it ended on its own (a crash, memory). */
export type WorkerGone = 'stopped' | 'failed';

export interface WorkerJobsOptions<J, R> {
  /** The worker, just created; it answers each `{ id, ...job }` it is posted with a reply carrying the same id. */
  worker: Worker;
  /** The result of a job from the worker's reply to it: a value, or an Error to reject the job with. */
  answer: (reply: WorkerReply, job: J) => R | Error;
  /** Where a job goes when the worker is gone before answering it: every caller still gets its answer. */
  instead: (job: J) => Promise<R>;
  /** After this long without a job the worker is stopped, and its memory returned. */
  idleStopMs: number;
  /** Once, when the worker stops taking jobs (its owner forgets it then and starts another when needed). */
  onGone: (how: WorkerGone) => void;
}

export interface WorkerJobs<J, R> {
  run(job: J): Promise<R>;
  /** Jobs posted and not yet answered. */
  pending(): number;
  /** Stops the worker; the jobs it had not answered go to `instead`. */
  stop(): Promise<void>;
}

interface Waiting<J, R> {
  job: J;
  resolve: (result: R) => void;
  reject: (err: Error) => void;
}

/**
 * One worker thread running jobs posted by id, the part the hashing threads and the password judge share. It keeps
 * the process alive only while it has jobs (a seeder waits for its answer; an idle worker holds nothing open), stops
 * when idle, and when it ends under its jobs, each waiting job is handed to `instead`.
 */
export function startWorkerJobs<J extends object, R>(options: WorkerJobsOptions<J, R>): WorkerJobs<J, R> {
  const { worker, answer, instead, idleStopMs, onGone } = options;
  const waiting = new Map<number, Waiting<J, R>>();
  let nextId = 0;
  let idleTimer: NodeJS.Timeout | null = null;
  let gone = false;

  const handOver = (entry: Waiting<J, R>) => void instead(entry.job).then(entry.resolve, entry.reject);

  function leave(how: WorkerGone): void {
    if (gone) return;
    gone = true;
    if (idleTimer) clearTimeout(idleTimer);
    onGone(how);
    for (const entry of waiting.values()) handOver(entry);
    waiting.clear();
  }

  async function stop(): Promise<void> {
    leave('stopped');
    await worker.terminate();
  }

  /** No job left: the worker no longer holds the process open, and stops unless a job comes within idleStopMs. */
  function idle(): void {
    worker.unref();
    idleTimer = setTimeout(() => void stop(), idleStopMs).unref();
  }

  worker.unref();
  worker.on('message', (reply: WorkerReply) => {
    const entry = waiting.get(reply.id);
    if (!entry) return;
    waiting.delete(reply.id);
    if (waiting.size === 0) idle();
    const result = answer(reply, entry.job);
    if (result instanceof Error) entry.reject(result);
    else entry.resolve(result);
  });
  worker.on('error', () => leave('failed'));
  worker.on('exit', () => leave('failed'));

  function run(job: J): Promise<R> {
    if (gone) return instead(job);
    if (idleTimer) {
      clearTimeout(idleTimer);
      idleTimer = null;
    }
    return new Promise<R>((resolve, reject) => {
      const id = nextId++;
      try {
        worker.postMessage({ id, ...job });
      } catch (err) {
        // A job the worker cannot be sent (a value structured clone refuses) fails alone.
        reject(err as Error);
        if (waiting.size === 0) idle();
        return;
      }
      if (waiting.size === 0) worker.ref();
      waiting.set(id, { job, resolve, reject });
    });
  }

  return { run, pending: () => waiting.size, stop };
}
