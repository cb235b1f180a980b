import { AppError } from '../http/app-error';

/**
 * Who a password hash is for, and so where it waits when the machine is busy hashing (issue 51):
 * - `known`: a sign-in from a browser that signed in to this account before (a valid device cookie,
 *   src/sign-in/device-cookies.ts), or a signed-in user's own password work: waits in front of everyone else.
 * - `open`: everything else (a new browser, an API client, an attacker): waits behind `known`, and only
 *   while its wait stays short; beyond that it is refused before any hashing.
 */
export type HashLane = 'known' | 'open';

/**
 * The answer when a lane is full: nothing hashed, and the same 429 with Retry-After as the per-IP limit and the
 * account throttle (a 4xx: a flood of them is not a server fault, and fills no log with warnings).
 */
export const hashQueueFull = (retryAfterSeconds: number) => AppError.tooManyRequests(retryAfterSeconds);

interface Waiting<J> {
  job: J;
  resolve: (key: Buffer) => void;
  reject: (err: Error) => void;
}

/**
 * `known` hashes waiting beyond this are refused too: even the priority lane may not grow without limit (a
 * stolen device cookie replayed in a flood). Far above what a machine signs in per second.
 */
const MAX_KNOWN_WAITING = 256;

/** Before any hash has finished, a hash is taken to last this long (PBKDF2-SHA256 at 100,000 rounds on one core is ~40 ms). */
const FIRST_ESTIMATE_MS = 50;

/**
 * A bounded, two-lane queue in front of the hashing threads. At most `slots` hashes are handed to the threads
 * at once (two per thread: one running, the next waiting there, so a thread never idles between jobs); the
 * rest wait here, `known` ones first. An `open` hash is admitted only while the wait it would have (the hashes
 * ahead of it, at the rate the threads finish them) is at most `maxWaitMs`: under a flood the open lane
 * stays about a second long and every request beyond it is refused at once, so memory stays bounded, the
 * threads stay busy with the hashes they can do, and a known browser waits for at most the hashes already
 * handed to the threads. With normal traffic nothing waits long enough to be refused.
 */
export function createHashQueue<J>(options: { derive: (job: J) => Promise<Buffer>; slots: number; maxWaitMs: number }) {
  const { derive, slots, maxWaitMs } = options;
  const lanes: Record<HashLane, Waiting<J>[]> = { known: [], open: [] };
  let handedOut = 0;
  /** How long a hash handed to the threads takes to come back (moving average), for the wait estimate. */
  let roundTripMs = FIRST_ESTIMATE_MS;

  /** The wait of a hash queued now in `lane`: the hashes ahead of it, finished `slots` per round trip. */
  function expectedWaitMs(lane: HashLane): number {
    const ahead = lane === 'known' ? lanes.known.length : lanes.known.length + lanes.open.length;
    return handedOut < slots ? 0 : ((ahead + 1) * roundTripMs) / slots;
  }

  /** Whether a hash in `lane` would be taken now; the refusal says when to try again. */
  function admits(lane: HashLane): { ok: true } | { ok: false; retryAfterSeconds: number } {
    const full = lane === 'known' ? lanes.known.length >= MAX_KNOWN_WAITING : expectedWaitMs('open') > maxWaitMs;
    return full ? { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(expectedWaitMs(lane) / 1000)) } : { ok: true };
  }

  function handOut(entry: Waiting<J>): void {
    handedOut += 1;
    const started = performance.now();
    derive(entry.job).then(
      (key) => {
        roundTripMs = 0.8 * roundTripMs + 0.2 * (performance.now() - started);
        finished();
        entry.resolve(key);
      },
      (err: Error) => {
        finished();
        entry.reject(err);
      },
    );
  }

  function finished(): void {
    handedOut -= 1;
    const next = lanes.known.shift() ?? lanes.open.shift();
    if (next) handOut(next);
  }

  /** The key of `job`, hashed in turn for its lane; rejects with a 429 AppError (nothing hashed) when the lane is full. */
  function run(job: J, lane: HashLane): Promise<Buffer> {
    const admitted = admits(lane);
    if (!admitted.ok) return Promise.reject(hashQueueFull(admitted.retryAfterSeconds));
    return new Promise<Buffer>((resolve, reject) => {
      const entry = { job, resolve, reject };
      if (handedOut < slots) handOut(entry);
      else lanes[lane].push(entry);
    });
  }

  /** Hashes waiting here, by lane (for /metrics and tests). */
  const waiting = () => ({ known: lanes.known.length, open: lanes.open.length });

  return { run, admits, waiting };
}

export type HashQueue<J> = ReturnType<typeof createHashQueue<J>>;
