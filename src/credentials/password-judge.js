'use strict';
/*
 * The password-quality judgement itself (CONTRACT 12): refused when the password is on the common list
 * @zxcvbn-ts/language-common ships (about 49,000 passwords seen most often in breaches, compared in lower
 * case as the list is) or zxcvbn scores its first JUDGED_LENGTH characters below MIN_SCORE.
 *
 * Plain JavaScript because it also runs as a worker thread's entry (password-quality.ts starts it): zxcvbn's
 * matching is synchronous CPU work (17–29 ms a password on a loaded 2-core box) and its dictionaries hold
 * about 7 MiB, neither of which belongs on the event loop or in the heap of a process that is not setting
 * passwords. The same functions run in-process where blocking is fine (the configuration check at boot).
 */
const { isMainThread, parentPort, workerData } = require('node:worker_threads');

/** zxcvbn scores 0–4; below this the password is refused. */
const MIN_SCORE = 2;
/**
 * zxcvbn judges at most this many leading characters: its matching grows faster than the length. A password
 * longer than this is judged on its first 64, which must be strong on their own, so nothing is waved through
 * by length alone.
 */
const JUDGED_LENGTH = 64;
/**
 * l33t variants zxcvbn tries (its default 100 is exponential work on inputs such as "p@$$w0rd" repeated:
 * 140–260 ms on a loaded 2-core box; 16: 17–29 ms, and the scores of every sample stayed the same).
 */
const L33T_MAX_SUBSTITUTIONS = 16;
// Words every password of this service is checked against besides the shipped lists.
const SERVICE_WORDS = ['auth', 'admin', 'administrator', 'password', 'login', 'signin', 'service'];

const MESSAGES = {
  common: 'is one of the most commonly used passwords',
  personal: 'must not be your email address, username or name, nor the name of this service',
  weak: 'is too easy to guess: use a longer phrase of unrelated words, or add characters that follow no pattern',
};

// Built at the first judgement: indexing the dictionaries takes tens of milliseconds.
let judge = null;
let commonList = null;

function factory() {
  if (!judge) {
    const { ZxcvbnFactory } = require('@zxcvbn-ts/core');
    const { dictionary, adjacencyGraphs } = require('@zxcvbn-ts/language-common');
    commonList = dictionary['passwords-common'];
    judge = new ZxcvbnFactory({
      dictionary: { ...dictionary, service: SERVICE_WORDS },
      graphs: adjacencyGraphs,
      l33tMaxSubstitutions: L33T_MAX_SUBSTITUTIONS,
      maxLength: JUDGED_LENGTH,
    });
  }
  return judge;
}

/**
 * `{ score, problem }`: the zxcvbn score and, when refused, the field message. `userInputs` (the account's
 * email, its local part, username, names and the service's name, in lower case) count as known words, so a
 * password built from them scores low; one that is exactly one of them is refused outright. The common list
 * is scanned rather than copied into a Set (well under a millisecond, beside zxcvbn's tens): the shipped
 * array and zxcvbn's ranked copy are in memory anyway.
 */
function judgePassword(password, userInputs = []) {
  const zxcvbn = factory();
  const lower = password.toLowerCase();
  if (userInputs.includes(lower)) return { score: 0, problem: MESSAGES.personal };
  if (commonList.includes(lower)) return { score: 0, problem: MESSAGES.common };
  const { score } = zxcvbn.check(password.slice(0, JUDGED_LENGTH), [...userInputs]);
  return { score, problem: score < MIN_SCORE ? MESSAGES.weak : null };
}

if (!isMainThread && workerData && workerData.role === 'password-judge') {
  parentPort.on('message', ({ id, password, userInputs }) => {
    try {
      parentPort.postMessage({ id, judgement: judgePassword(password, userInputs) });
    } catch (err) {
      parentPort.postMessage({ id, error: err instanceof Error ? err.message : String(err) });
    }
  });
}

module.exports = { judgePassword, MIN_SCORE, JUDGED_LENGTH, MESSAGES };
