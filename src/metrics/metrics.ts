import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { StoreFailures } from '../store/key-value-store';

/** How a sign-in ended: signed in, refused (wrong credentials, spent code), or refused by the account throttle. */
export type SignInOutcome = 'success' | 'failure' | 'throttled';
/** Why a request failed on the database: unreachable (or a broken link), or contention that outlasted the retries. */
export type DatabaseErrorKind = 'unavailable' | 'contention';
export type MailOutcome = 'sent' | 'failed' | 'not_configured';

/** Seconds; spans a cached token check (well under a millisecond) to a slow hash or mail send. */
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export interface MetricsOptions {
  /**
   * The store whose failed calls are reported (it counts them itself; read at each scrape, so the store,
   * opened before any app, needs no reference to an app's registry).
   */
  store?: { readonly failures?: Readonly<StoreFailures> };
  /**
   * Process metrics (CPU, memory, event-loop delay, GC): only when /metrics is served, since each
   * registry that collects them keeps its own event-loop and GC observers for the life of the process.
   */
  processMetrics?: boolean;
}

/**
 * One registry per app (tests build many apps in one process; prom-client's global registry would
 * refuse the second app's series). Every label takes values from a fixed set (route patterns, method
 * names, limiter names, outcomes), never from a raw URL or anything a client chooses, so the number
 * of series stays bounded.
 */
export function createMetrics(options: MetricsOptions = {}) {
  const registry = new Registry();
  const registers = [registry];
  if (options.processMetrics) collectDefaultMetrics({ register: registry });

  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers,
  });
  const requestDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from a request arriving to its answer being handed to the socket, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: DURATION_BUCKETS,
    registers,
  });
  const signIns = new Counter({
    name: 'auth_sign_ins_total',
    help: 'Sign-ins by method (password, otp, magic_link, a provider, registration) and outcome (success, failure, throttled)',
    labelNames: ['method', 'outcome'] as const,
    registers,
  });
  const rateLimited = new Counter({
    name: 'rate_limit_refusals_total',
    help: 'Requests refused with 429 by a per-client rate limiter, by limiter',
    labelNames: ['limiter'] as const,
    registers,
  });
  const failures = options.store?.failures;
  let reported: StoreFailures = { unavailable: 0, refused: 0 };
  new Counter({
    name: 'store_errors_total',
    help: 'Key-value store calls that failed: unavailable (down, not answering, or paused after a failure) or refused (an error reply such as out of memory)',
    labelNames: ['kind'] as const,
    registers,
    collect() {
      if (!failures) return;
      // The store's own totals, as increments since the last scrape: a counter only ever goes up.
      this.inc({ kind: 'unavailable' }, failures.unavailable - reported.unavailable);
      this.inc({ kind: 'refused' }, failures.refused - reported.refused);
      reported = { ...failures };
    },
  });
  const databaseErrors = new Counter({
    name: 'database_errors_total',
    help: 'Requests answered 503 because of the database: unavailable (no connection, broken link) or contention (deadlocks and lock waits past the retries)',
    labelNames: ['kind'] as const,
    registers,
  });
  const mail = new Counter({
    name: 'mail_messages_total',
    help: 'Mail deliveries by outcome: sent, failed (the mail service refused or could not be reached), not_configured',
    labelNames: ['outcome'] as const,
    registers,
  });
  const outboxAttempts = new Counter({
    name: 'outbox_attempts_total',
    help: 'Outbox delivery attempts (webhooks, mail) by kind and outcome: delivered, retry (will be tried again), failed (given up)',
    labelNames: ['kind', 'outcome'] as const,
    registers,
  });
  // Set by the outbox once it exists: the count is read from the database at each scrape, not kept here.
  let countPending: (() => Promise<Array<{ kind: string; count: number }>>) | undefined;
  new Gauge({
    name: 'outbox_pending',
    help: 'Outbox entries waiting for delivery (first attempt or a retry), by kind',
    labelNames: ['kind'] as const,
    registers,
    async collect() {
      this.reset();
      for (const { kind, count } of (await countPending?.()) ?? []) this.set({ kind }, count);
    },
  });
  const sessions = {
    created: new Counter({ name: 'sessions_created_total', help: 'Sign-ins that issued a session (every method, registration included)', registers }),
    revoked: new Counter({ name: 'sessions_revoked_total', help: 'Sessions ended by a sign-out: one per logout, one per logout-all', registers }),
  };

  return {
    registry,
    /** One answered request; `route` is a route pattern or UNMATCHED_ROUTE, never the request's URL. */
    request(method: string, route: string, status: number, seconds: number): void {
      const labels = { method, route, status: String(status) };
      requests.inc(labels);
      requestDuration.observe(labels, seconds);
    },
    signIn(method: string, outcome: SignInOutcome): void {
      signIns.inc({ method, outcome });
    },
    rateLimited(limiter: string): void {
      rateLimited.inc({ limiter });
    },
    databaseError(kind: DatabaseErrorKind): void {
      databaseErrors.inc({ kind });
    },
    mail(outcome: MailOutcome): void {
      mail.inc({ outcome });
    },
    /** One attempt of an outbox entry; `failed` when it was the last. */
    outboxAttempt(kind: string, outcome: 'delivered' | 'retry' | 'failed'): void {
      outboxAttempts.inc({ kind, outcome });
    },
    /** Where the outbox_pending gauge reads its figures at a scrape. */
    watchOutboxPending(count: () => Promise<Array<{ kind: string; count: number }>>): void {
      countPending = count;
    },
    /** `sessions.created.inc()`, `sessions.revoked.inc()`: whatever creates or ends a session counts it. */
    sessions,
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
