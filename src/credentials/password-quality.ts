import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { MESSAGES, judgePassword } from './password-judge';

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

interface Waiting {
  password: string;
  userInputs: readonly string[];
  resolve: (judgement: PasswordJudgement) => void;
}

let worker: Worker | null = null;
let stopTimer: NodeJS.Timeout | null = null;
let nextId = 0;
const waiting = new Map<number, Waiting>();

/** Judges in this thread: what is waiting when the worker fails (correct, only slower for the event loop). */
function judgeHereInstead(failed: Worker): void {
  if (worker === failed) worker = null;
  for (const [id, request] of waiting) {
    waiting.delete(id);
    request.resolve(judgePassword(request.password, [...request.userInputs]));
  }
}

function startWorker(): Worker {
  const started = new Worker(path.join(__dirname, 'password-judge.js'), { workerData: { role: 'password-judge' } });
  // An idle worker never holds the process open (shutdown, tests).
  started.unref();
  started.on('message', ({ id, judgement, error }: { id: number; judgement?: PasswordJudgement; error?: string }) => {
    const request = waiting.get(id);
    if (!request) return;
    waiting.delete(id);
    request.resolve(error === undefined && judgement ? judgement : judgePassword(request.password, [...request.userInputs]));
    if (waiting.size === 0) scheduleStop(started);
  });
  started.on('error', () => judgeHereInstead(started));
  started.on('exit', () => judgeHereInstead(started));
  return started;
}

function scheduleStop(idleWorker: Worker): void {
  stopTimer = setTimeout(() => {
    stopTimer = null;
    if (worker === idleWorker && waiting.size === 0) {
      worker = null;
      void idleWorker.terminate();
    }
  }, IDLE_MS);
  stopTimer.unref();
}

/**
 * Judges a password on the worker thread: zxcvbn's synchronous matching (tens of milliseconds) never holds
 * the event loop, and its dictionaries live only while passwords are being set.
 */
export function judgePasswordOffThread(password: string, userInputs: readonly string[] = []): Promise<PasswordJudgement> {
  if (stopTimer) {
    clearTimeout(stopTimer);
    stopTimer = null;
  }
  worker ??= startWorker();
  const id = nextId++;
  const judged = new Promise<PasswordJudgement>((resolve) => waiting.set(id, { password, userInputs, resolve }));
  worker.postMessage({ id, password, userInputs: [...userInputs] });
  return judged;
}

/** The field message for a password that must not be set, or null when it may (judged off the event loop). */
export async function passwordProblem(password: string, userInputs: readonly string[] = []): Promise<string | null> {
  return (await judgePasswordOffThread(password, userInputs)).problem;
}

/** Whether the worker is up (it ends IDLE_MS after its last judgement). */
export function passwordJudgeRunning(): boolean {
  return worker !== null;
}

/** The same rule judged in this thread, blocking it: only where nothing else is waiting (the configuration check at boot). */
export function passwordProblemNow(password: string): string | null {
  return judgePassword(password).problem;
}
