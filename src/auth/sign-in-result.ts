import type { ActivityEntry } from '../services/activity.service';

/** What a strategy hands to `this.success` besides the user: how it signed in, for the session step. */
export interface SignInInfo {
  /** `password`, `otp`, `magic_link`, `github`, …: written to the activity row. */
  method: string;
  /** Extra activity details (never a secret). */
  details?: Record<string, unknown>;
  /** A same-origin path the flow carried (OAuth state, magic-link callbackURL); checked again before use. */
  redirect?: string | null;
}

/** What a strategy hands to `this.fail`: the public answer, and the activity row that records it. */
export interface SignInFailure {
  message: string;
  /** Extra public fields of the JSON answer (e.g. `attemptsRemaining`). */
  body?: Record<string, unknown>;
  audit?: ActivityEntry;
  /** A flow a browser arrives at by redirect (an OAuth callback) answers with a redirect here instead of an error. */
  redirect?: string;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface AuthInfo extends Partial<SignInInfo> {}
  }
}
