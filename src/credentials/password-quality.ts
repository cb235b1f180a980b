import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { MESSAGES, judgePassword } from './password-judge';
import { startWorkerJobs, type WorkerJobs } from '../util/worker-jobs';
import { AppError } from '../http/app-error';

/**
 * The one password-quality rule (CONTRACT 12 and 18), applied wherever a password is set (input-rules'
 * judgedPassword for bodies that name the account: registration, admin create, seed-admin; refuseWeakPassword
 * in the services that know the account: reset, password change; config's ADMIN_PASSWORD) and never where one
 * is checked (sign-in stays a plain comparison, whatever the password's age). The judgement is
 * password-judge.js; requests have it made on a worker thread (below).
 */

export const PASSWORD_QUALITY_MESSAGES: Readonly<{ common: string; weak: string; personal: string }> = MESSAGES;

/** What a password is judged against besides the shipped lists: the account it is for. */
export interface PasswordContext {
  email?: string | null;
  username?: string | null;
  firstName?: string | null;
  lastName?: string | null;
}

/**
 * The one form a password is judged, hashed and compared in: NFKC, so "ｐａｓｓ" and "pass" (or a ligature and
 * its letters) are one password everywhere, and a compatibility spelling of the username is the username.
 */
export function normalizePassword(password: string): string {
  return password.normalize('NFKC');
}

// APP_NAME, set once by the composition root (config is read there only): every password is judged against it.
let serviceName: string | null = null;

/** Names the service for the judgement (APP_NAME): a password equal to it is refused, one built from it scores low. */
export function nameTheService(appName: string): void {
  serviceName = appName;
}

/**
 * The words a password is judged against: the email, its local part, the username, the names and the
 * service's name, each whole (an exact match is refused) and split into its parts of 3 characters or more
 * ("jane.doe" also gives "jane" and "doe", so a password built from one part scores low).
 */
export function contextWords(context: PasswordContext): string[] {
  const whole = [context.email, context.email?.split('@')[0], context.username, context.firstName, context.lastName, serviceName]
    .filter((word): word is string => typeof word === 'string' && word.trim() !== '')
    .map((word) => normalizePassword(word.trim()).toLowerCase());
  const parts = whole.flatMap((word) => word.split(/[^\p{L}\p{N}]+/u)).filter((part) => part.length >= 3);
  return [...new Set([...whole, ...parts])];
}

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

/** The field message for a password (NFKC form) that must not be set for this account, or null when it may (judged off the event loop). */
export async function passwordProblem(password: string, context: PasswordContext): Promise<string | null> {
  return (await judgePasswordOffThread(password, contextWords(context))).problem;
}

/** Refuses (400 naming `field` and why) a password (NFKC form) that must not be set for this account: for services that know the account. */
export async function refuseWeakPassword(field: string, password: string, context: PasswordContext): Promise<void> {
  const problem = await passwordProblem(password, context);
  if (problem) throw AppError.validation({ [field]: problem });
}

/** Whether the worker is up (it ends IDLE_MS after its last judgement). */
export function passwordJudgeRunning(): boolean {
  return judge !== null;
}

/** The same rule judged in this thread, blocking it: only where nothing else is waiting (the configuration check at boot). */
export function passwordProblemNow(password: string, context: PasswordContext = {}): string | null {
  return judgePassword(normalizePassword(password), contextWords(context)).problem;
}
