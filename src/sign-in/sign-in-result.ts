import type { ActivityAction, ActivityEntry } from '../services/operations/activity.service';
import { AppError } from '../http/app-error';

/** What a strategy hands to `this.success` besides the user: how it signed in, for the session step. */
export interface SignInInfo {
  /** `password`, `otp`, `magic_link`, `github`, …: written to the activity row. */
  method: string;
  /** Extra activity details (never a secret). */
  details?: Record<string, unknown>;
  /** A same-origin path the flow carried (OAuth state, magic-link callbackURL); checked again before use. */
  redirect?: string | null;
  /**
   * Uses up the one-time credential the sign-in rests on (a code, a link), or answers why it cannot (a
   * parallel use won). The session step calls it after everything else that reads the database, so a
   * sign-in that fails on the way (the database gone, say) leaves the credential usable.
   */
  spend?: () => Promise<SignInFailure | null>;
  /**
   * The second factor this sign-in has already proved (`totp`, `recovery`, or `passkey` for a passkey with
   * user verification): the session step asks for no second step then. Absent: a first factor only.
   */
  secondFactor?: string;
  /** A completed second step records the first factor's activity action (`auth.login`, …), not the verify route's. */
  action?: ActivityAction;
  /** A named session extension to run (the one the first step would have run before the second step deferred it). */
  extension?: string;
}

/** What a strategy hands to `this.fail`: the public answer, and the activity row that records it. */
export interface SignInFailure {
  message: string;
  /** The answer's status when not 401 (429 for a throttled account), with its headers. */
  status?: number;
  headers?: Record<string, string>;
  /** Extra public fields of the JSON answer (e.g. `attemptsRemaining`). */
  body?: Record<string, unknown>;
  audit?: ActivityEntry;
  /** A flow a browser arrives at by redirect (an OAuth callback) answers with a redirect here instead of an error. */
  redirect?: string;
  /** Continue to `redirect` from a page of ours rather than by a 302 (see continueTo: the browser comes from another site). */
  landing?: boolean;
}

/** The public answer to a refused sign-in: its message, extra body fields and headers, 401 unless told. */
export function signInRefused(failure: SignInFailure, status?: number): AppError {
  return new AppError(status ?? failure.status ?? 401, failure.message, {
    ...(failure.body ? { body: failure.body } : {}),
    ...(failure.headers ? { headers: failure.headers } : {}),
  });
}

/**
 * The answer to a sign-in refused by the throttle (password or code): the same 429 as the per-IP limit,
 * for unknown and known emails alike, and an activity row that counts the block's refusals in one row.
 */
export function throttledSignIn(attempt: { method: string; email: string; userId: string | null; retryAfterSeconds: number; until: number }): SignInFailure {
  const limited = AppError.tooManyRequests(attempt.retryAfterSeconds);
  return {
    message: limited.message,
    status: limited.status,
    headers: limited.options.headers,
    audit: {
      action: 'auth.login_failed',
      userId: attempt.userId,
      email: attempt.email,
      details: { method: attempt.method, reason: 'throttled' },
      repeat: { key: `auth.login_failed:throttled:${attempt.method}:${attempt.email}`, until: attempt.until },
    },
  };
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface AuthInfo extends Partial<SignInInfo> {}
  }
}
