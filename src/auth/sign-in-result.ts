import type { ActivityEntry } from '../services/activity.service';
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
}

/** What a strategy hands to `this.fail`: the public answer, and the activity row that records it. */
export interface SignInFailure {
  message: string;
  /** Extra public fields of the JSON answer (e.g. `attemptsRemaining`). */
  body?: Record<string, unknown>;
  audit?: ActivityEntry;
}

/** The public answer to a refused sign-in: its message and extra body fields, 401 unless told. */
export function signInRefused(failure: SignInFailure, status = 401): AppError {
  return new AppError(status, failure.message, failure.body ? { body: failure.body } : {});
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface AuthInfo extends Partial<SignInInfo> {}
  }
}
