import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { MESSAGES, judgePassword } from './password-judge';
import { startWorkerJobs, type WorkerJobs } from '../util/worker-jobs';

/**
 * The one password-quality rule (CONTRACT 12), applied wherever a password is set (input-rules'
 * newPassword: registration, reset, profile change, admin create, seed-admin; config's ADMIN_PASSWORD)
 * and never where one is checked (sign-in stays a plain comparison, whatever the password's age).
 * The judgement is password-judge.js; requests have it made on a worker thread (below).
 */

export const PASSWORD_QUALITY_MESSAGES: Readonly<{ common: string; weak: string }> = MESSAGES;

/** The judgement of a password: its zxcvbn score and, when refused, why (a field message). */
export interface PasswordJudgement {
  score: number;
  problem: string | null;
}

/**
 * The worker ends after this long without a password to judge: its heap and the dictionaries (about 7 MiB)
 * go with it, and the next password set starts it again (about 100 ms, then tens of ms a password).
 */
const IDLE_MS = 10_000;

interface JudgeJob {
  password: string;
  userInputs: string[];
}

/** Judged in this thread: what the worker could not judge (correct, only slower for the event loop). */
const judgeHere = (job: JudgeJob): PasswordJudgement => judgePassword(job.password, job.userInputs);

let judge: WorkerJobs<JudgeJob, PasswordJudgement> | null = null;

function startJudge(): WorkerJobs<JudgeJob, PasswordJudgement> {
  const started = startWorkerJobs<JudgeJob, PasswordJudgement>({
    worker: new Worker(path.join(__dirname, 'password-judge.js'), { workerData: { role: 'password-judge' } }),
    answer: (reply, job) => (reply.error === undefined && reply.judgement ? (reply.judgement as PasswordJudgement) : judgeHere(job)),
    instead: async (job) => judgeHere(job),
    idleStopMs: IDLE_MS,
    onGone: () => {
      if (judge === started) judge = null;
    },
  });
  return started;
}

/**
 * Judges a password on the worker thread: zxcvbn's synchronous matching (tens of milliseconds) never holds
 * the event loop, and its dictionaries live only while passwords are being set.
 */
export function judgePasswordOffThread(password: string, userInputs: readonly string[] = []): Promise<PasswordJudgement> {
  judge ??= startJudge();
  return judge.run({ password, userInputs: [...userInputs] });
}

/** The field message for a password that must not be set, or null when it may (judged off the event loop). */
export async function passwordProblem(password: string, userInputs: readonly string[] = []): Promise<string | null> {
  return (await judgePasswordOffThread(password, userInputs)).problem;
}

/** Whether the worker is up (it ends IDLE_MS after its last judgement). */
export function passwordJudgeRunning(): boolean {
  return judge !== null;
}

/** The same rule judged in this thread, blocking it: only where nothing else is waiting (the configuration check at boot). */
export function passwordProblemNow(password: string): string | null {
  return judgePassword(password).problem;
}
