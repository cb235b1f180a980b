import crypto from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import type { Logger } from 'pino';
import {
  rateLimit,
  ipKeyGenerator,
  MemoryStore as FallbackMemoryStore,
  type Options,
  type Store,
  type ClientRateLimitInfo,
  type RateLimitInfo,
} from 'express-rate-limit';
import type { KeyValueStore } from '../store';
import { AppError } from '../http/app-error';
import { normalizeEmail } from '../util/account-text';
import { MAILS_PER_EMAIL, type EmailQuota } from '../services/operations/email-quota';
import type { Metrics } from '../metrics/metrics';

/** The limited endpoints (SPEC 8 and CONTRACT 4). */
export type LimitName = 'login' | 'register' | 'seedAdmin' | 'passwordReset' | 'refresh' | 'magicLink' | 'otpRequest' | 'oauth' | 'passkey' | 'secondFactor';

export interface LimitRule {
  /** Requests allowed per window and client IP. */
  limit: number;
  /** Window length in seconds (fractions allowed, for tests). */
  windowSeconds: number;
}

export const RATE_LIMITS: Readonly<Record<LimitName, LimitRule>> = {
  login: { limit: 5, windowSeconds: 60 },
  register: { limit: 3, windowSeconds: 60 },
  seedAdmin: { limit: 2, windowSeconds: 60 },
  passwordReset: { limit: 3, windowSeconds: 15 * 60 },
  refresh: { limit: 60, windowSeconds: 60 },
  // Magic-link requests per client IP; mails per address are a silent quota (src/services/email-quota.ts).
  magicLink: { limit: 5, windowSeconds: 60 },
  // OTP code requests per client IP: the per-email hourly limit (a plugin setting) stops one mailbox
  // being flooded; this stops one client mailing codes to many addresses.
  otpRequest: { limit: 10, windowSeconds: 60 },
  // Starting an OAuth flow and its callback share one budget: a sign-in takes two requests.
  oauth: { limit: 30, windowSeconds: 60 },
  // Passkey sign-in options and verify per client IP: an assertion cannot be guessed, this only bounds the work.
  passkey: { limit: 30, windowSeconds: 60 },
  // Second-step answers and step-up proofs per client IP: their own budget beside sign-in's, so a mistyped
  // code does not cost the password; the challenge (5 answers) and the account throttle bound the guessing.
  secondFactor: { limit: 20, windowSeconds: 60 },
};

/** Key namespace in the key-value store: `rl:<limiter>:<client ip>`. */
const KEY_SEGMENT: Record<LimitName, string> = {
  login: 'login',
  register: 'register',
  seedAdmin: 'seed-admin',
  passwordReset: 'password-reset',
  refresh: 'refresh',
  magicLink: 'magic-link',
  otpRequest: 'otp-request',
  oauth: 'oauth',
  passkey: 'passkey',
  secondFactor: 'second-factor',
};

/** While the shared store is failing, it is still tried, but the outage is logged at most this often. */
const OUTAGE_LOG_INTERVAL_MS = 60_000;

export interface RateLimitsOptions {
  store: KeyValueStore;
  logger: Logger;
  /** Replaces limits or windows (tests use a short window to watch it reset). */
  overrides?: Partial<Record<LimitName, Partial<LimitRule>>>;
  /** Counts each refusal by limiter name. */
  metrics?: Pick<Metrics, 'rateLimited'>;
}

export type RateLimits = Record<LimitName, RequestHandler>;

/**
 * express-rate-limit store on our KeyValueStore: counters live in Redis (atomic INCR + PEXPIRE), so every
 * instance shares them. When the shared store fails (it bounds its own wait: see redis-store.ts), this
 * request is counted by an in-process MemoryStore instead: requests are never blocked by the outage, and
 * limiting degrades to per-instance.
 */
class SharedRateLimitStore implements Store {
  readonly prefix: string;
  readonly localKeys: boolean;
  private readonly fallback = new FallbackMemoryStore();
  private windowMs = 60_000;
  private degradedSince: number | null = null;
  private lastOutageLog = 0;

  constructor(
    private readonly store: KeyValueStore,
    name: string,
    private readonly logger: Logger,
  ) {
    this.prefix = `rl:${name}:`;
    this.localKeys = store.kind === 'memory';
  }

  init(options: Options): void {
    this.windowMs = options.windowMs;
    this.fallback.init(options);
  }

  async increment(key: string): Promise<ClientRateLimitInfo> {
    try {
      const { count, resetAt } = await this.store.increment(this.prefix + key, this.windowMs / 1000);
      this.recovered();
      return { totalHits: count, resetTime: new Date(resetAt) };
    } catch (err) {
      this.failed(err);
      return this.fallback.increment(key);
    }
  }

  async decrement(key: string): Promise<void> {
    // Only used with skip(Successful|Failed)Requests, which these limiters do not set.
    await this.fallback.decrement(key);
  }

  async resetKey(key: string): Promise<void> {
    await this.fallback.resetKey(key);
    await this.store.delete(this.prefix + key).catch(() => undefined);
  }

  shutdown(): void {
    this.fallback.shutdown();
  }

  private failed(err: unknown): void {
    const now = Date.now();
    if (this.degradedSince === null) this.degradedSince = now;
    if (now - this.lastOutageLog >= OUTAGE_LOG_INTERVAL_MS) {
      this.lastOutageLog = now;
      this.logger.warn(
        { limiter: this.prefix, err: (err as Error).message },
        'rate limit store unavailable: counting in this process until it recovers',
      );
    }
  }

  private recovered(): void {
    if (this.degradedSince === null) return;
    this.logger.info({ limiter: this.prefix, outageMs: Date.now() - this.degradedSince }, 'rate limit store recovered');
    this.degradedSince = null;
    this.lastOutageLog = 0;
  }
}

/** The client key: `req.ip` (TRUST_PROXY decides whether X-Forwarded-For counts); IPv6 grouped by /56. */
function clientKey(req: { ip?: string }): string {
  return req.ip ? ipKeyGenerator(req.ip, 56) : 'unknown';
}

/**
 * A per-email counter that refuses without saying so: the caller answers exactly as when allowed, only
 * sends nothing (no 429, no X-RateLimit headers: either would tell a stranger that someone asked for this
 * address lately). Counted for every address, known or not, in the shared store under
 * `rl:<name>:<sha256(normalised email)>`; while the store fails, this process counts alone (as every limiter here).
 */
export function createEmailQuota(deps: { store: KeyValueStore; logger: Logger; name: string; rule?: Readonly<LimitRule> }): EmailQuota {
  const rule = deps.rule ?? MAILS_PER_EMAIL;
  const counter = new SharedRateLimitStore(deps.store, deps.name, deps.logger.child({ component: 'rate-limit' }));
  counter.init({ windowMs: Math.max(1, Math.round(rule.windowSeconds * 1000)) } as Options);
  return {
    async take(email) {
      const key = crypto.createHash('sha256').update(normalizeEmail(email)).digest('hex');
      const { totalHits, resetTime } = await counter.increment(key);
      return { allowed: totalHits <= rule.limit, until: resetTime?.getTime() ?? Date.now() + rule.windowSeconds * 1000 };
    },
  };
}

function secondsUntil(resetTime: Date | undefined, fallbackMs: number): number {
  const ms = resetTime ? resetTime.getTime() - Date.now() : fallbackMs;
  return Math.max(1, Math.ceil(ms / 1000));
}

/**
 * One limiter per limited endpoint. Every answer carries X-RateLimit-Limit / -Remaining / -Reset (epoch
 * seconds); the 429 also carries Retry-After and goes through the error handler (JSON or an HTML page).
 */
export function createRateLimits({ store, logger, overrides = {}, metrics }: RateLimitsOptions): RateLimits {
  const log = logger.child({ component: 'rate-limit' });
  const build = (name: LimitName, key: (req: Request) => string = clientKey): RequestHandler => {
    const rule = { ...RATE_LIMITS[name], ...overrides[name] };
    const windowMs = Math.max(1, Math.round(rule.windowSeconds * 1000));
    return rateLimit({
      windowMs,
      limit: rule.limit,
      legacyHeaders: true,
      standardHeaders: false,
      store: new SharedRateLimitStore(store, KEY_SEGMENT[name], log),
      keyGenerator: (req) => key(req),
      // The library's own console warnings would bypass our logger; its checks are covered by tests.
      validate: false,
      logger: {
        error: (err: unknown, message?: string) => log.error({ err: (err as Error)?.message }, message ?? 'rate limiter error'),
        warn: (err: unknown, message?: string) => log.warn({ err: (err as Error)?.message }, message ?? 'rate limiter warning'),
      },
      handler: (req, _res, next) => {
        metrics?.rateLimited(name);
        const info = (req as unknown as { rateLimit?: RateLimitInfo }).rateLimit;
        next(AppError.tooManyRequests(secondsUntil(info?.resetTime, windowMs)));
      },
    });
  };
  return {
    login: build('login'),
    register: build('register'),
    seedAdmin: build('seedAdmin'),
    passwordReset: build('passwordReset'),
    refresh: build('refresh'),
    magicLink: build('magicLink'),
    otpRequest: build('otpRequest'),
    oauth: build('oauth'),
    passkey: build('passkey'),
    secondFactor: build('secondFactor'),
  };
}
