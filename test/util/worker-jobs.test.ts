import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { startWorkerJobs, type WorkerGone, type WorkerJobs } from '../../src/util/worker-jobs';

/** A worker answering `{ id, ms, fail? }` after `ms` milliseconds with `{ id, value: ms }`, or `{ id, error }`. */
const DELAYED_ECHO = `
const { parentPort } = require('node:worker_threads');
parentPort.on('message', ({ id, ms, fail }) => setTimeout(() => parentPort.postMessage(fail ? { id, error: 'refused' } : { id, value: ms }), ms));
`;

interface Job {
  ms: number;
  fail?: boolean;
}

function echo(options: { idleStopMs?: number } = {}) {
  const gone: WorkerGone[] = [];
  const handedOver: Job[] = [];
  const worker = new Worker(DELAYED_ECHO, { eval: true, execArgv: [] });
  const jobs: WorkerJobs<Job, number> = startWorkerJobs<Job, number>({
    worker,
    answer: (reply) => (typeof reply.value === 'number' ? reply.value : new Error(String(reply.error))),
    instead: async (job) => {
      handedOver.push(job);
      return -job.ms;
    },
    idleStopMs: options.idleStopMs ?? 10_000,
    onGone: (how) => gone.push(how),
  });
  return { worker, jobs, gone, handedOver };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('worker jobs (one worker thread answering jobs by id)', () => {
  let stop: (() => Promise<void>) | undefined;
  afterEach(async () => {
    const stopping = stop;
    stop = undefined;
    await stopping?.();
  });

  it('when answers come back out of order, then each job gets its own, and a refused job fails alone', async () => {
    const { jobs } = echo();
    stop = jobs.stop;
    const slow = jobs.run({ ms: 60 });
    const refused = jobs.run({ ms: 5, fail: true });
    const fast = jobs.run({ ms: 10 });
    assert.equal(jobs.pending(), 3);
    await assert.rejects(refused, /refused/);
    assert.deepEqual(await Promise.all([slow, fast]), [60, 10]);
    assert.equal(jobs.pending(), 0);
  });

  it('when the worker ends on its own under jobs, then each waiting job is answered instead, and its owner hears "failed" once', async () => {
    const { worker, jobs, gone, handedOver } = echo();
    const waiting = [jobs.run({ ms: 500 }), jobs.run({ ms: 600 })];
    await sleep(20);
    // As a crash would end it: not through stop().
    await worker.terminate();
    assert.deepEqual(await Promise.all(waiting), [-500, -600]);
    assert.deepEqual(handedOver, [{ ms: 500 }, { ms: 600 }]);
    assert.deepEqual(gone, ['failed']);
    assert.equal(await jobs.run({ ms: 7 }), -7, 'a job for a gone worker goes elsewhere too');
  });

  it('when no job comes for idleStopMs, then the worker stops ("stopped"), and a job in time keeps it', async () => {
    const { worker, jobs, gone } = echo({ idleStopMs: 80 });
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    await jobs.run({ ms: 1 });
    await sleep(40);
    await jobs.run({ ms: 1 });
    await sleep(40);
    assert.deepEqual(gone, [], 'a job within idleStopMs of the last one keeps the worker');
    await exited;
    assert.deepEqual(gone, ['stopped']);
  });

  it('when stopped under jobs, then they are answered instead', async () => {
    const { jobs, gone, handedOver } = echo();
    const waiting = jobs.run({ ms: 1_000 });
    await jobs.stop();
    assert.equal(await waiting, -1_000);
    assert.deepEqual(handedOver, [{ ms: 1_000 }]);
    assert.deepEqual(gone, ['stopped']);
  });

  it('when a job cannot be sent to the worker, then it fails alone and the worker goes on', async () => {
    const { jobs } = echo();
    stop = jobs.stop;
    await assert.rejects(jobs.run({ ms: 1, fail: (() => undefined) as unknown as boolean }), /could not be cloned/);
    assert.equal(jobs.pending(), 0);
    assert.equal(await jobs.run({ ms: 3 }), 3);
  });
});
