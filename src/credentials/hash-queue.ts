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

/** The gaps kept for the estimate are at most this many (a window's worth at thousands of hashes a second is not needed). */
const MAX_GAPS = 64;

/**
 * Before a gap has been measured, hashes are taken to finish one per this long (PBKDF2-SHA256 at 100,000 rounds is
 * ~40 ms on one core, and two slots per thread finish one per half of that on the smallest machine, two cores).
 */
const FIRST_GAP_MS = 25;

/**
 * The throughput estimate looks back this far: short, so that when the threads lose the cores (other processes
 * on the host, hashing at nice 10) the estimate follows within a second, not after many slow round trips.
 */
const WINDOW_MS = 1_000;

/** A refusal never asks a client to wait longer than this (the estimate may be far longer while the threads stall). */
const MAX_RETRY_AFTER_SECONDS = 60;

/**
 * A bounded, two-lane queue in front of the hashing threads. At most `slots` hashes are handed to the threads
 * at once (two per thread: one running, the next waiting there, so a thread never idles between jobs); the
 * rest wait here, `known` ones first. An `open` hash is admitted only while the wait it would have (the hashes
 * ahead of it, at the rate the threads finish them) is at most `maxWaitMs`: under a flood the open lane
 * stays short and every request beyond it is refused at once, so memory stays bounded, the
 * threads stay busy with the hashes they can do, and a known browser's hash starts at once in the known lane's
 * own slot (`knownSlot`) or, while that is taken, after the hashes already handed out. With normal traffic nothing
 * waits long enough to be refused.
 *
 * The rate is measured, not assumed: the gaps between hashes finishing while every slot was taken, over the last
 * WINDOW_MS, and never less than the gap since the last one finished. So a collapse (the threads descheduled, no
 * hash finishing) raises the estimate as it happens, and the open lane is closed within a fraction of a second
 * rather than after the slow hashes come back (a moving average of round trips lagged by seconds: issue 51).
 */
export function createHashQueue<J>(options: {
  derive: (job: J) => Promise<Buffer>;
  slots: number;
  maxWaitMs: number;
  /**
   * One more slot, for `known` hashes only, beside the threads (libuv's pool at the process's own priority): a known
   * browser's hash starts at once instead of after the attackers' hashes already handed to the threads, which on a
   * host whose cores other processes hold (the threads run at nice 10) can each take seconds. One at a time, so a
   * replayed device cookie can take no more than one core from the event loop; the device throttle bounds it too.
   */
  knownSlot?: (job: J) => Promise<Buffer>;
}) {
  const { derive, slots, maxWaitMs, knownSlot } = options;
  const lanes: Record<HashLane, Waiting<J>[]> = { known: [], open: [] };
  let handedOut = 0;
  let knownSlotBusy = false;
  /** When each of the recent gaps ended and how long it was: hashes finishing while every slot was taken. */
  const gaps: Array<{ at: number; ms: number }> = [];
  /** Since when the threads have been due to finish a hash: the last finish, or when the slots filled up. */
  let dueSince = performance.now();

  /** The time between two hashes finishing, as the threads run now. */
  function gapMs(now: number): number {
    while (gaps.length > 0 && gaps[0].at < now - WINDOW_MS) gaps.shift();
    const measured = gaps.length === 0 ? FIRST_GAP_MS : gaps.reduce((sum, gap) => sum + gap.ms, 0) / gaps.length;
    return Math.max(measured, now - dueSince);
  }

  /** The wait of a hash queued now in `lane`: the hashes ahead of it, finishing one per gap. */
  function expectedWaitMs(lane: HashLane): number {
    const ahead = lane === 'known' ? lanes.known.length : lanes.known.length + lanes.open.length;
    return handedOut < slots ? 0 : (ahead + 1) * gapMs(performance.now());
  }

  /** Whether a hash in `lane` would be taken now; the refusal says when to try again. */
  function admits(lane: HashLane): { ok: true } | { ok: false; retryAfterSeconds: number } {
    const full = lane === 'known' ? lanes.known.length >= MAX_KNOWN_WAITING : expectedWaitMs('open') > maxWaitMs;
    if (!full) return { ok: true };
    return { ok: false, retryAfterSeconds: Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(1, Math.ceil(expectedWaitMs(lane) / 1000))) };
  }

  function handOut(entry: Waiting<J>): void {
    handedOut += 1;
    if (handedOut === slots) dueSince = performance.now();
    derive(entry.job).then(
      (key) => {
        finished();
        entry.resolve(key);
      },
      (err: Error) => {
        finished();
        entry.reject(err);
      },
    );
  }

  function handToKnownSlot(entry: Waiting<J>, slot: (job: J) => Promise<Buffer>): void {
    knownSlotBusy = true;
    slot(entry.job).then(entry.resolve, entry.reject).finally(() => {
      knownSlotBusy = false;
      const next = lanes.known.shift();
      if (next) handToKnownSlot(next, slot);
    });
  }

  function finished(): void {
    const now = performance.now();
    // Only a gap with every slot taken measures the threads; one with free slots measures how little was asked.
    if (handedOut === slots) {
      gaps.push({ at: now, ms: now - dueSince });
      if (gaps.length > MAX_GAPS) gaps.shift();
    }
    dueSince = now;
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
      if (lane === 'known' && knownSlot && !knownSlotBusy) handToKnownSlot(entry, knownSlot);
      else if (handedOut < slots) handOut(entry);
      else lanes[lane].push(entry);
    });
  }

  /** Hashes waiting here, by lane (for /metrics and tests). */
  const waiting = () => ({ known: lanes.known.length, open: lanes.open.length });

  return { run, admits, waiting };
}

export type HashQueue<J> = ReturnType<typeof createHashQueue<J>>;
