import crypto from 'node:crypto';
import type { CookieOptions, Request, Response } from 'express';
import type { Logger } from 'pino';
import type { KeyValueStore } from '../store';
import type { AccountThrottle } from '../credentials/account-throttle';
import { createAttemptReservation, reserveAll } from '../credentials/attempt-reservation';
import type { AuthUser } from '../sessions/auth-user';
import type { AuthUserRecords } from '../sessions/auth-user-records';
import type { ActivityAction } from '../services/operations/activity.service';

/** Where a page goes to answer the challenge, and the HttpOnly cookie that carries it there. */
export const SECOND_STEP_PAGE = '/auth/2fa';
export const CHALLENGE_COOKIE = '2fa_challenge';

/** CONTRACT 9: a challenge lives 5 minutes, is answered once, and dies after 5 wrong answers. */
export const CHALLENGE_RULES = { ttlSeconds: 5 * 60, maxWrongAnswers: 5 } as const;

export const SECOND_FACTOR_MESSAGES = {
  invalid: 'Invalid code',
} as const;

/**
 * One kind of second factor (`totp`, `recovery`, and `passkey` from the passkeys work). The registry is
 * the only place the second step learns which kinds exist: `methods` in the challenge answer lists the
 * kinds a user has, and `POST /auth/2fa/verify` judges an answer by the kind whose `field` it carries.
 */
export interface SecondFactorKind {
  /** The name clients see in `methods` and the session's method suffix (`password+totp`). */
  name: string;
  /** The field of the verify body that carries this kind's answer (`code`, `recoveryCode`). */
  field: string;
  /** Whether this kind alone puts the second step into every sign-in (recovery codes only back up another kind). */
  standalone: boolean;
  enrolled(userId: string): Promise<boolean>;
  /** Whether the answer is right for the user; spends it (a time step, a recovery code) when it is. */
  verify(userId: string, answer: unknown): Promise<boolean>;
}

/** What the first factor found, kept with the challenge so the second step ends the same sign-in. */
export interface DeferredSignIn {
  /** The first factor's activity action (`auth.login`, `oauth.login`, …): the completed sign-in records it. */
  action: ActivityAction;
  method: string;
  details?: Record<string, unknown>;
  /** The same-origin path a page goes to once signed in (already checked by safeRedirect). */
  redirect: string | null;
  /** A named session extension the first step would have run (the magic link's server session). */
  extension?: string;
}

interface ChallengeRecord extends DeferredSignIn {
  userId: string;
  email: string;
  methods: string[];
}

/** A begun challenge: its answer to the client, or its removal when the first factor's credential could not be spent. */
export interface BegunChallenge {
  challenge: string;
  methods: string[];
  discard(): Promise<void>;
}

/** The outcome of an answer to a challenge; every refusal answers the same `Invalid code` (429 while the account is blocked). */
export type ChallengeAnswer =
  | { ok: true; user: AuthUser; signIn: DeferredSignIn; kind: string; spend: () => Promise<boolean> }
  | { ok: false; reason: 'unknown_challenge' | 'wrong_answer' | 'no_answer' | 'inactive'; userId: string | null; email: string | null }
  | { ok: false; reason: 'throttled'; userId: string; email: string; retryAfterSeconds: number; until: number };

/** An answer as its kind judged it: the kind that read it (null when no enrolled kind has its field) and whether it was right. */
export interface Judged {
  kind: SecondFactorKind | null;
  right: boolean;
}

const hashed = (challenge: string) => crypto.createHash('sha256').update(challenge).digest('hex');
const keys = {
  record: (challenge: string) => `2fa:challenge:${hashed(challenge)}`,
};

/**
 * The second step of sign-in (CONTRACT 9). After any first factor, the session step asks `begin`: a user
 * with a second factor gets a challenge (an opaque id; the store keeps what the first factor found, under
 * a hash of the id) instead of a session. `answer` judges a code against it. Answers are reserved per
 * challenge (the fifth wrong one ends it) and per account, in the sign-in throttle and in a second-factor
 * throttle that only a right answer lifts (a right password must not wipe the count of wrong codes). Everything
 * lives in the shared store: any instance may finish a challenge another began.
 */
export function createSecondFactor(deps: {
  store: KeyValueStore;
  authUsers: Pick<AuthUserRecords, 'byId'>;
  /** The per-account throttle of every password and code check. */
  throttle: AccountThrottle;
  /** The same rule under its own keys, lifted only by a right second-factor answer. */
  secondFactorThrottle: AccountThrottle;
  secure: boolean;
  logger: Logger;
}) {
  const { store, authUsers, throttle, secondFactorThrottle } = deps;
  const kinds = new Map<string, SecondFactorKind>();
  // Per challenge, refused at once past the limit (no waiting: only one right answer can win a challenge anyway).
  const answers = createAttemptReservation({ store, logger: deps.logger, name: '2fa:answers', rule: { limit: CHALLENGE_RULES.maxWrongAnswers, windowSeconds: CHALLENGE_RULES.ttlSeconds } });

  /** Adds a kind of second factor (at start-up, in the container). */
  function register(kind: SecondFactorKind): void {
    if (kinds.has(kind.name)) throw new Error(`second factor ${kind.name} registered twice`);
    kinds.set(kind.name, kind);
  }

  /** The kinds the user has, in registration order; empty when none of them stands alone. */
  async function methodsFor(userId: string): Promise<string[]> {
    const all = [...kinds.values()];
    const enrolled = await Promise.all(all.map((kind) => kind.enrolled(userId)));
    const have = all.filter((_, i) => enrolled[i]);
    return have.some((kind) => kind.standalone) ? have.map((kind) => kind.name) : [];
  }

  /**
   * Judges an answer by the kind among `methods` whose field it carries (no such kind: nothing right). The
   * caller has reserved the attempt (reserve, then judge): the second step here, step-up in its service.
   */
  async function judge(userId: string, methods: readonly string[], body: Record<string, unknown>): Promise<Judged> {
    const kind = methods.map((name) => kinds.get(name)).find((candidate) => candidate && body[candidate.field] !== undefined);
    return { kind: kind ?? null, right: kind ? await kind.verify(userId, body[kind.field]) : false };
  }

  /** A challenge for the user when they have a second factor, else null (the session step goes on). */
  async function begin(user: Pick<AuthUser, 'id' | 'email' | 'twoFactorEnabled'>, signIn: DeferredSignIn): Promise<BegunChallenge | null> {
    // The sign-in read says whether the one standalone kind (TOTP) is on: without it no kind asks anything, and a
    // sign-in of the many users without a second factor costs no query here.
    if (user.twoFactorEnabled === false) return null;
    const methods = await methodsFor(user.id);
    if (methods.length === 0) return null;
    const challenge = crypto.randomBytes(32).toString('base64url');
    const record: ChallengeRecord = { ...signIn, userId: user.id, email: user.email, methods };
    await store.set(keys.record(challenge), JSON.stringify(record), CHALLENGE_RULES.ttlSeconds);
    return { challenge, methods, discard: () => store.delete(keys.record(challenge)) };
  }

  /** Who a live challenge is for and which kinds it accepts (a passkey's options step reads it), or null. */
  async function pending(challenge: string): Promise<{ userId: string; methods: string[] } | null> {
    const raw = typeof challenge === 'string' && challenge !== '' ? await store.get(keys.record(challenge)) : null;
    if (!raw) return null;
    const record = JSON.parse(raw) as ChallengeRecord;
    return { userId: record.userId, methods: record.methods };
  }

  /**
   * Judges an answer (`{ code }`, `{ recoveryCode }`, or another kind's field) to a challenge. Reserve, then
   * judge: an attempt is taken on the challenge and in both account throttles before the answer is compared,
   * so parallel answers never judge more than the challenge's or the account's limit; a wrong one keeps its
   * attempts (the fifth kills the challenge), a right one gives them back. A right one is not yet the end:
   * `spend` takes the challenge (one winner among parallel answers), called by the session step once
   * everything else has succeeded.
   */
  async function answer(challenge: string, body: Record<string, unknown>): Promise<ChallengeAnswer> {
    const raw = typeof challenge === 'string' && challenge !== '' ? await store.get(keys.record(challenge)) : null;
    if (!raw) return { ok: false, reason: 'unknown_challenge', userId: null, email: null };
    const record = JSON.parse(raw) as ChallengeRecord;
    const { userId, email } = record;
    const attempt = await reserveAll([answers.reserve(hashed(challenge)), throttle.reserve(email), secondFactorThrottle.reserve(email)]);
    if (!attempt.ok) {
      // The challenge's own limit taken: the same answer as a dead challenge; the account's: 429.
      if (attempt.refusedBy === 0) return { ok: false, reason: 'unknown_challenge', userId, email };
      return { ok: false, reason: 'throttled', userId, email, retryAfterSeconds: attempt.retryAfterSeconds, until: attempt.until };
    }
    let judged: Judged;
    try {
      judged = await judge(userId, record.methods, body);
    } catch (err) {
      await attempt.succeeded();
      throw err;
    }
    const { kind, right } = judged;
    if (!kind || !right) {
      if ((await attempt.failed()).limitReached) await store.delete(keys.record(challenge));
      return { ok: false, reason: kind ? 'wrong_answer' : 'no_answer', userId, email };
    }
    await attempt.succeeded();
    const found = await authUsers.byId(userId);
    if (!found || !found.active) return { ok: false, reason: 'inactive', userId, email };
    await secondFactorThrottle.clear(email);
    const { action, method, details, redirect, extension } = record;
    const spend = async () => (await store.take(keys.record(challenge))) !== null;
    return { ok: true, user: found.user, kind: kind.name, signIn: { action, method, details, redirect, extension }, spend };
  }

  function cookieOptions(): CookieOptions {
    // Lax, not Strict: an OAuth sign-in reaches /auth/2fa through the provider's cross-site redirect chain.
    return { httpOnly: true, secure: deps.secure, sameSite: 'lax', path: SECOND_STEP_PAGE };
  }

  /** Answers a first factor that needs the second step: JSON `{ twoFactorRequired, challenge, methods }`, or a page's way to /auth/2fa. */
  function respond(res: Response, begun: BegunChallenge, asPage: boolean): void {
    res.set('Cache-Control', 'no-store');
    if (!asPage) {
      res.status(200).json({ twoFactorRequired: true, challenge: begun.challenge, methods: begun.methods });
      return;
    }
    res.cookie(CHALLENGE_COOKIE, begun.challenge, { ...cookieOptions(), maxAge: CHALLENGE_RULES.ttlSeconds * 1000 });
    res.redirect(302, SECOND_STEP_PAGE);
  }

  /** The challenge a request names: the body's, else the page's cookie. */
  function challengeOf(req: Request): string {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const cookies = (req.cookies ?? {}) as Record<string, unknown>;
    const named = typeof body.challenge === 'string' && body.challenge !== '' ? body.challenge : cookies[CHALLENGE_COOKIE];
    return typeof named === 'string' ? named : '';
  }

  function clearCookie(res: Response): void {
    res.clearCookie(CHALLENGE_COOKIE, cookieOptions());
  }

  return { register, methodsFor, judge, begin, pending, answer, respond, challengeOf, clearCookie };
}

export type SecondFactor = ReturnType<typeof createSecondFactor>;
