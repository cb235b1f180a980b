import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { z } from 'zod';
import net from 'node:net';
import { MAX_REFRESH_GRACE_SECONDS, MAX_TOKEN_LIFETIME_SECONDS, parseDurationSeconds } from './duration';
import { CLUSTER_NODES_RULE, READ_URLS_RULE, REDIS_URL_RULE, scaleTargets } from './scale-config';
import { PASSWORD_LENGTH } from '../util/account-text';
import { passwordProblemNow } from '../credentials/password-quality';

/** Thrown when the environment is unusable; its message is the one line printed before exit. */
export class ConfigError extends Error {}

const MIN_PRODUCTION_SECRET_LENGTH = 32;
const MIN_EXTERNAL_AUTH_SECRET_LENGTH = 16;
const MIN_METRICS_TOKEN_LENGTH = 16;
/** Token signing algorithms (CONTRACT 11): HS256 with JWT_SECRET, or one of the asymmetric ones with database keys. */
export const JWT_ALGORITHMS = ['HS256', 'EdDSA', 'ES256', 'RS256'] as const;
export type JwtAlgorithm = (typeof JWT_ALGORITHMS)[number];

const optionalString = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();

/** A token lifetime: 0 would expire every token at issue, and past a year cookie dates overflow. */
const lifetimeString = optionalString.refine(
  (v) => {
    if (v === undefined) return true;
    const seconds = parseDurationSeconds(v);
    return seconds !== null && seconds >= 1 && seconds <= MAX_TOKEN_LIFETIME_SECONDS;
  },
  { message: 'must be a duration such as 30d, 12h, 3600s or a number of seconds, from 1s to 365d' },
);

/** Express's `trust proxy` names; anything else must be an IP address or a CIDR range. */
const PROXY_NAMES: ReadonlySet<string> = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isProxyAddress(item: string): boolean {
  if (PROXY_NAMES.has(item)) return true;
  const [address, prefix, ...rest] = item.split('/');
  const family = net.isIP(address);
  if (family === 0 || rest.length > 0) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
}

/** An empty variable is unset, here as for every other variable (z.coerce would read '' as 0). */
const blankAsUnset = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.preprocess(blankAsUnset, z.coerce.number().int().min(0).max(65535).default(3000)),
  HOST: z.string().min(1).default('0.0.0.0'),
  BASE_URL: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
  DATABASE_URL: optionalString.refine((v) => v === undefined || /^(sqlite:|mysql:|mariadb:)/.test(v), {
    message: 'must start with sqlite:, mysql: or mariadb:',
  }),
  REDIS_URL: optionalString.refine(REDIS_URL_RULE.test, { message: REDIS_URL_RULE.message }),
  REDIS_CLUSTER_NODES: optionalString.refine(CLUSTER_NODES_RULE.test, { message: CLUSTER_NODES_RULE.message }),
  DATABASE_READ_URLS: optionalString.refine(READ_URLS_RULE.test, { message: READ_URLS_RULE.message }),
  JWT_SECRET: optionalString,
  // CONTRACT 11: HS256 signs with JWT_SECRET; an asymmetric algorithm signs with keys kept in the database.
  JWT_ALGORITHM: z.preprocess(blankAsUnset, z.enum(JWT_ALGORITHMS, { message: `must be one of ${JWT_ALGORITHMS.join(', ')}` }).default('HS256')),
  JWT_ISSUER: optionalString.pipe(z.string().max(255).optional()),
  JWT_AUDIENCE: optionalString.pipe(z.string().max(255).optional()),
  // Requests per minute one API key may make (CONTRACT 11), on every instance together.
  // How long a webhook receiver has to answer (CONTRACT 16: 10 s); lowered only by tests of the cut.
  WEBHOOK_TIMEOUT_MS: z.preprocess(blankAsUnset, z.coerce.number({ message: 'must be a whole number of milliseconds from 100 to 10000' }).int().min(100).max(10_000).default(10_000)),
  API_KEY_RATE_LIMIT: z.preprocess(blankAsUnset, z.coerce.number({ message: 'must be a whole number of requests per minute' }).int().min(1).max(1_000_000).default(600)),
  EXTERNAL_AUTH_SECRET: optionalString.refine(
    (v) => v === undefined || v.length >= MIN_EXTERNAL_AUTH_SECRET_LENGTH,
    { message: `must be at least ${MIN_EXTERNAL_AUTH_SECRET_LENGTH} characters` },
  ),
  JWT_EXPIRES_IN: lifetimeString,
  JWT_REFRESH_GRACE_SECONDS: optionalString.refine((v) => v === undefined || (/^\d{1,10}$/.test(v) && Number(v) <= MAX_REFRESH_GRACE_SECONDS), {
    message: `must be a whole number of seconds up to ${MAX_REFRESH_GRACE_SECONDS} (0 disables refresh after expiry)`,
  }),
  // CONTRACT 8: the absolute lifetime of a session (overrides the admin setting), and how long a token a
  // refresh superseded keeps working (parallel requests of one client refresh the same token).
  SESSION_MAX_AGE: optionalString.refine((v) => v === undefined || (parseDurationSeconds(v) ?? 0) >= 60, {
    message: 'must be a duration such as 90d, 12h or a number of seconds, at least 60s',
  }),
  // CONTRACT 9: how recent a sign-in (or step-up) must be for a step-up route such as a password change.
  STEP_UP_MAX_AGE: optionalString.refine((v) => v === undefined || ((parseDurationSeconds(v) ?? 0) >= 1 && (parseDurationSeconds(v) ?? 0) <= 86_400), {
    message: 'must be a duration such as 10m, 1h or a number of seconds, from 1s to 24h',
  }),
  REFRESH_REUSE_WINDOW_SECONDS: z.preprocess(blankAsUnset, z.coerce.number({ message: 'must be a whole number of seconds from 0 to 600' }).int().min(0).max(600).default(60)),
  // Issue 51: after SIGTERM, how long connections are still accepted (readiness 503) before the listener closes.
  SHUTDOWN_GRACE_MS: z.preprocess(blankAsUnset, z.coerce.number({ message: 'must be a whole number of milliseconds from 0 to 60000' }).int().min(0).max(60_000).default(3_000)),
  PASSWORD_PBKDF2_ITERATIONS: z.coerce.number().int().min(10_000).max(10_000_000).default(100_000),
  SMTP_URL: optionalString.refine((v) => v === undefined || /^smtps?:\/\//.test(v), {
    message: 'must be an smtp:// or smtps:// URL',
  }),
  EMAIL_FROM: optionalString,
  // Development and tests only: lets admins point plugin URLs (SMTP, email API, OAuth) at internal addresses.
  ALLOW_PRIVATE_OUTBOUND: z.preprocess(blankAsUnset, z.enum(['true', 'false'], { message: 'must be true or false' }).default('false')),
  AUTH_CONFIG: optionalString,
  ADMIN_EMAIL: optionalString.pipe(z.email().optional()),
  // As any password being set (input-rules' newPassword); checked here so a bad one stops the boot, not a request.
  ADMIN_PASSWORD: optionalString
    .refine((v) => v === undefined || (v.length >= PASSWORD_LENGTH.min && v.length <= PASSWORD_LENGTH.max), {
      message: `must be ${PASSWORD_LENGTH.min} to ${PASSWORD_LENGTH.max} characters`,
      abort: true,
    })
    .superRefine((v, ctx) => {
      const problem = v === undefined ? null : passwordProblemNow(v);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
  TRUST_PROXY: optionalString.refine(
    (v) => v === undefined || ['true', 'false'].includes(v) || /^\d+$/.test(v) || v.split(',').every((item) => isProxyAddress(item.trim())),
    { message: 'must be true, false, a hop count, or comma-separated IP addresses, CIDR ranges, loopback, linklocal or uniquelocal' },
  ),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // JSON lines for log collectors; `npm run dev` asks for pretty (readable lines, pino-pretty, a dev dependency).
  LOG_FORMAT: z.preprocess(blankAsUnset, z.enum(['json', 'pretty'], { message: 'must be json or pretty' }).default('json')),
  // Unset: no /metrics at all (404). Set: /metrics answers `Authorization: Bearer <METRICS_TOKEN>` only.
  METRICS_TOKEN: optionalString.refine((v) => v === undefined || v.length >= MIN_METRICS_TOKEN_LENGTH, {
    message: `must be at least ${MIN_METRICS_TOKEN_LENGTH} characters`,
  }),
  // Activity rows older than this many days are deleted by the retention job; 0 keeps them forever.
  ACTIVITY_RETENTION_DAYS: z.preprocess(blankAsUnset, z.coerce.number({ message: 'must be a whole number of days (0 keeps forever)' }).int().min(0).max(36_500).default(90)),
  DATA_DIR: optionalString,
  APP_NAME: optionalString.pipe(z.string().max(64).optional()),
});

export interface Config {
  env: 'development' | 'production' | 'test';
  isProduction: boolean;
  port: number;
  host: string;
  baseUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** redis://, rediss://, redis+sentinel://…, or redis+cluster://host:port,… (from REDIS_CLUSTER_NODES). */
  redisUrl: string | undefined;
  /** DATABASE_READ_URLS: MySQL replicas for reads that may lag (none: every read goes to DATABASE_URL). */
  databaseReadUrls: string[];
  jwtSecret: string;
  externalAuthSecret: string | undefined;
  /** Lifetime and grace from the environment only; undefined means "ask the admin setting, then the default". */
  jwtExpiresIn: { value: string; seconds: number } | undefined;
  jwtRefreshGraceSeconds: number | undefined;
  /** SESSION_MAX_AGE; undefined means "ask the admin setting, then the default". */
  sessionMaxAge: { value: string; seconds: number } | undefined;
  refreshReuseWindowSeconds: number;
  /** After SIGTERM: ms of readiness 503 with connections still accepted, before the listener closes. */
  shutdownGraceMs: number;
  /** STEP_UP_MAX_AGE in seconds (default 10 minutes). */
  stepUpMaxAgeSeconds: number;
  passwordIterations: number;
  smtpUrl: string | undefined;
  emailFrom: string | undefined;
  /** Whether outbound URLs an admin enters may reach loopback, private, link-local or metadata addresses. */
  allowPrivateOutbound: boolean;
  authConfigPath: string | undefined;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  trustProxy: boolean | number | string;
  logLevel: string;
  logFormat: 'json' | 'pretty';
  /** The bearer token /metrics demands; undefined: no /metrics. */
  metricsToken: string | undefined;
  /** Days an activity row is kept (0: forever). */
  activityRetentionDays: number;
  /** APP_NAME: how the service names itself to authenticators and authenticator apps (passkeys, TOTP). */
  appName: string;
  /** JWT_ALGORITHM, JWT_ISSUER (default BASE_URL) and JWT_AUDIENCE (unset: no `aud`), CONTRACT 11. */
  jwtAlgorithm: JwtAlgorithm;
  jwtIssuer: string;
  jwtAudience: string | undefined;
  /** Requests per minute per API key. */
  apiKeyRateLimit: number;
  /** WEBHOOK_TIMEOUT_MS: a receiver's answer must arrive within it (default and most 10 s). */
  webhookTimeoutMs: number;
  /** Warnings found while loading, logged once the logger exists. */
  warnings: string[];
}

/** Parses and validates the environment once; throws ConfigError naming the first bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(`Invalid configuration: ${String(issue.path[0])} ${issue.message}`);
  }
  const e = parsed.data;
  const isProduction = e.NODE_ENV === 'production';
  const dataDir = path.resolve(e.DATA_DIR ?? 'data');
  const warnings: string[] = [];

  const jwtSecret = resolveJwtSecret(e.JWT_SECRET, isProduction, dataDir, warnings);
  const scale = scaleTargets(e);
  if (typeof scale === 'string') throw new ConfigError(`Invalid configuration: ${scale}`);
  const expires = e.JWT_EXPIRES_IN;

  return {
    env: e.NODE_ENV,
    isProduction,
    port: e.PORT,
    host: e.HOST,
    baseUrl: (e.BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    dataDir,
    databaseUrl: e.DATABASE_URL,
    redisUrl: scale.redisUrl,
    databaseReadUrls: scale.databaseReadUrls,
    jwtSecret,
    externalAuthSecret: e.EXTERNAL_AUTH_SECRET,
    jwtExpiresIn: expires ? { value: expires, seconds: parseDurationSeconds(expires) as number } : undefined,
    jwtRefreshGraceSeconds: e.JWT_REFRESH_GRACE_SECONDS === undefined ? undefined : Number(e.JWT_REFRESH_GRACE_SECONDS),
    sessionMaxAge: e.SESSION_MAX_AGE ? { value: e.SESSION_MAX_AGE, seconds: parseDurationSeconds(e.SESSION_MAX_AGE) as number } : undefined,
    refreshReuseWindowSeconds: e.REFRESH_REUSE_WINDOW_SECONDS,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    stepUpMaxAgeSeconds: e.STEP_UP_MAX_AGE ? (parseDurationSeconds(e.STEP_UP_MAX_AGE) as number) : 600,
    passwordIterations: e.PASSWORD_PBKDF2_ITERATIONS,
    smtpUrl: e.SMTP_URL,
    emailFrom: e.EMAIL_FROM,
    allowPrivateOutbound: e.ALLOW_PRIVATE_OUTBOUND === 'true',
    authConfigPath: e.AUTH_CONFIG,
    adminEmail: e.ADMIN_EMAIL?.toLowerCase(),
    adminPassword: e.ADMIN_PASSWORD,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
    metricsToken: e.METRICS_TOKEN,
    activityRetentionDays: e.ACTIVITY_RETENTION_DAYS,
    appName: e.APP_NAME ?? 'Auth service',
    jwtAlgorithm: e.JWT_ALGORITHM,
    jwtIssuer: e.JWT_ISSUER ?? (e.BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    jwtAudience: e.JWT_AUDIENCE,
    apiKeyRateLimit: e.API_KEY_RATE_LIMIT,
    webhookTimeoutMs: e.WEBHOOK_TIMEOUT_MS,
    warnings,
  };
}

/**
 * Production demands a strong secret from the environment. Elsewhere a random secret is generated once
 * and kept in the data directory so tokens survive restarts; there is never a literal default.
 */
function resolveJwtSecret(fromEnv: string | undefined, isProduction: boolean, dataDir: string, warnings: string[]): string {
  if (fromEnv !== undefined) {
    if (isProduction && fromEnv.length < MIN_PRODUCTION_SECRET_LENGTH) {
      throw new ConfigError(`Invalid configuration: JWT_SECRET must be at least ${MIN_PRODUCTION_SECRET_LENGTH} characters in production`);
    }
    return fromEnv;
  }
  if (isProduction) {
    throw new ConfigError('Invalid configuration: JWT_SECRET is required in production (at least 32 characters)');
  }
  const file = path.join(dataDir, 'jwt-secret');
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    const stored = fs.readFileSync(file, 'utf8').trim();
    if (stored.length >= MIN_PRODUCTION_SECRET_LENGTH) return stored;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const generated = crypto.randomBytes(48).toString('base64url');
  fs.writeFileSync(file, generated, { mode: 0o600 });
  warnings.push(`JWT_SECRET is not set: generated a random secret in ${file}; set JWT_SECRET before running more than one instance`);
  return generated;
}

function parseTrustProxy(value: string | undefined): boolean | number | string {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  return value;
}
