import type { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { lazyModule } from '../util/lazy-module';

// Loaded where a password is first set (about 20 MiB of dictionaries): sign-in never needs them.
const zxcvbnCore = lazyModule(() => require('@zxcvbn-ts/core') as typeof import('@zxcvbn-ts/core'));
const zxcvbnCommon = lazyModule(() => require('@zxcvbn-ts/language-common') as typeof import('@zxcvbn-ts/language-common'));

/**
 * The one password-quality rule (CONTRACT 12), applied wherever a password is set (input-rules'
 * newPassword: registration, reset, profile change, admin create, seed-admin; config's ADMIN_PASSWORD)
 * and never where one is checked (sign-in stays a plain comparison, whatever the password's age).
 */

/** zxcvbn scores 0–4; below this the password is refused. */
export const MIN_SCORE = 2;
/**
 * zxcvbn judges at most this many leading characters. Its matching is synchronous CPU work on the event
 * loop that grows faster than the length; a password longer than this is judged on its first 64, which
 * must be strong on their own, so nothing is waved through by length alone.
 */
export const JUDGED_LENGTH = 64;
/**
 * l33t variants zxcvbn tries (its default 100 is exponential work on inputs such as "p@$$w0rd" repeated:
 * 140–260 ms on a loaded 2-core box; 16: 17–29 ms, and the scores of every sample stayed the same).
 */
const L33T_MAX_SUBSTITUTIONS = 16;

export const PASSWORD_QUALITY_MESSAGES = {
  common: 'is one of the most commonly used passwords',
  weak: 'is too easy to guess: use a longer phrase of unrelated words, or add characters that follow no pattern',
} as const;

// Words every password of this service is checked against besides the shipped lists.
const SERVICE_WORDS = ['auth', 'admin', 'administrator', 'password', 'login', 'signin', 'service'];

// Built on first use: the dictionaries cost tens of milliseconds to index, which a process that never
// sets a password (a worker, a test of something else) need not pay at start-up.
let judge: ZxcvbnFactory | null = null;
let common: ReadonlySet<string> | null = null;

function factory(): ZxcvbnFactory {
  const { dictionary, adjacencyGraphs } = zxcvbnCommon();
  judge ??= new (zxcvbnCore().ZxcvbnFactory)({
    dictionary: { ...dictionary, service: SERVICE_WORDS },
    graphs: adjacencyGraphs,
    l33tMaxSubstitutions: L33T_MAX_SUBSTITUTIONS,
    maxLength: JUDGED_LENGTH,
  });
  return judge;
}

function commonPasswords(): ReadonlySet<string> {
  // The list @zxcvbn-ts/language-common ships (about 49,000 passwords seen most often in breaches).
  common ??= new Set(zxcvbnCommon().dictionary['passwords-common']);
  return common;
}

/** The judgement of a password: its zxcvbn score and, when refused, why (a field message). */
export interface PasswordJudgement {
  score: number;
  problem: string | null;
}

/**
 * Judges a password that already passed the length rule: refused when it is on the common list (compared
 * in lower case, as the list is) or zxcvbn scores its first JUDGED_LENGTH characters below MIN_SCORE.
 * `userInputs` (the email, the username) count as known words when given.
 */
export function judgePassword(password: string, userInputs: readonly string[] = []): PasswordJudgement {
  if (commonPasswords().has(password.toLowerCase())) return { score: 0, problem: PASSWORD_QUALITY_MESSAGES.common };
  const { score } = factory().check(password.slice(0, JUDGED_LENGTH), [...userInputs]);
  return { score, problem: score < MIN_SCORE ? PASSWORD_QUALITY_MESSAGES.weak : null };
}

/** The field message for a password that must not be set, or null when it may. */
export function passwordProblem(password: string, userInputs: readonly string[] = []): string | null {
  return judgePassword(password, userInputs).problem;
}
