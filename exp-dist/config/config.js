"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.ConfigError = void 0;
exports.loadConfig = loadConfig;
const node_fs_1 = __importDefault(require("node:fs"));
const node_path_1 = __importDefault(require("node:path"));
const node_crypto_1 = __importDefault(require("node:crypto"));
const zod_1 = require("zod");
const duration_1 = require("./duration");
/** Thrown when the environment is unusable; its message is the one line printed before exit. */
class ConfigError extends Error {
}
exports.ConfigError = ConfigError;
const MIN_PRODUCTION_SECRET_LENGTH = 32;
const MIN_EXTERNAL_AUTH_SECRET_LENGTH = 16;
const optionalString = zod_1.z
    .string()
    .trim()
    .transform((v) => (v === '' ? undefined : v))
    .optional();
const durationString = optionalString.refine((v) => v === undefined || (0, duration_1.parseDurationSeconds)(v) !== null, {
    message: 'must be a duration such as 30d, 12h, 3600s or a number of seconds',
});
const envSchema = zod_1.z.object({
    NODE_ENV: zod_1.z.enum(['development', 'production', 'test']).default('development'),
    PORT: zod_1.z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: zod_1.z.string().min(1).default('0.0.0.0'),
    BASE_URL: optionalString.pipe(zod_1.z.url({ protocol: /^https?$/ }).optional()),
    DATABASE_URL: optionalString.refine((v) => v === undefined || /^(sqlite:|mysql:|mariadb:)/.test(v), {
        message: 'must start with sqlite:, mysql: or mariadb:',
    }),
    REDIS_URL: optionalString.refine((v) => v === undefined || /^rediss?:\/\//.test(v), {
        message: 'must be a redis:// or rediss:// URL',
    }),
    JWT_SECRET: optionalString,
    EXTERNAL_AUTH_SECRET: optionalString.refine((v) => v === undefined || v.length >= MIN_EXTERNAL_AUTH_SECRET_LENGTH, { message: `must be at least ${MIN_EXTERNAL_AUTH_SECRET_LENGTH} characters` }),
    JWT_EXPIRES_IN: durationString,
    JWT_REFRESH_GRACE_SECONDS: optionalString.refine((v) => v === undefined || /^\d{1,10}$/.test(v), {
        message: 'must be a whole number of seconds (0 disables refresh after expiry)',
    }),
    PASSWORD_PBKDF2_ITERATIONS: zod_1.z.coerce.number().int().min(10_000).max(10_000_000).default(100_000),
    SMTP_URL: optionalString.refine((v) => v === undefined || /^smtps?:\/\//.test(v), {
        message: 'must be an smtp:// or smtps:// URL',
    }),
    EMAIL_FROM: optionalString,
    AUTH_CONFIG: optionalString,
    ADMIN_EMAIL: optionalString.pipe(zod_1.z.email().optional()),
    ADMIN_PASSWORD: optionalString,
    TRUST_PROXY: optionalString,
    LOG_LEVEL: zod_1.z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    DATA_DIR: optionalString,
});
/** Parses and validates the environment once; throws ConfigError naming the first bad variable. */
function loadConfig(env = process.env) {
    const parsed = envSchema.safeParse(env);
    if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new ConfigError(`Invalid configuration: ${String(issue.path[0])} ${issue.message}`);
    }
    const e = parsed.data;
    const isProduction = e.NODE_ENV === 'production';
    const dataDir = node_path_1.default.resolve(e.DATA_DIR ?? 'data');
    const warnings = [];
    const jwtSecret = resolveJwtSecret(e.JWT_SECRET, isProduction, dataDir, warnings);
    const expires = e.JWT_EXPIRES_IN;
    return {
        env: e.NODE_ENV,
        isProduction,
        port: e.PORT,
        host: e.HOST,
        baseUrl: (e.BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
        dataDir,
        databaseUrl: e.DATABASE_URL,
        redisUrl: e.REDIS_URL,
        jwtSecret,
        externalAuthSecret: e.EXTERNAL_AUTH_SECRET,
        jwtExpiresIn: expires ? { value: expires, seconds: (0, duration_1.parseDurationSeconds)(expires) } : undefined,
        jwtRefreshGraceSeconds: e.JWT_REFRESH_GRACE_SECONDS === undefined ? undefined : Number(e.JWT_REFRESH_GRACE_SECONDS),
        passwordIterations: e.PASSWORD_PBKDF2_ITERATIONS,
        smtpUrl: e.SMTP_URL,
        emailFrom: e.EMAIL_FROM,
        authConfigPath: e.AUTH_CONFIG,
        adminEmail: e.ADMIN_EMAIL?.toLowerCase(),
        adminPassword: e.ADMIN_PASSWORD,
        trustProxy: parseTrustProxy(e.TRUST_PROXY),
        logLevel: e.LOG_LEVEL,
        warnings,
    };
}
/**
 * Production demands a strong secret from the environment. Elsewhere a random secret is generated once
 * and kept in the data directory so tokens survive restarts; there is never a literal default.
 */
function resolveJwtSecret(fromEnv, isProduction, dataDir, warnings) {
    if (fromEnv !== undefined) {
        if (isProduction && fromEnv.length < MIN_PRODUCTION_SECRET_LENGTH) {
            throw new ConfigError(`Invalid configuration: JWT_SECRET must be at least ${MIN_PRODUCTION_SECRET_LENGTH} characters in production`);
        }
        return fromEnv;
    }
    if (isProduction) {
        throw new ConfigError('Invalid configuration: JWT_SECRET is required in production (at least 32 characters)');
    }
    const file = node_path_1.default.join(dataDir, 'jwt-secret');
    node_fs_1.default.mkdirSync(dataDir, { recursive: true });
    try {
        const stored = node_fs_1.default.readFileSync(file, 'utf8').trim();
        if (stored.length >= MIN_PRODUCTION_SECRET_LENGTH)
            return stored;
    }
    catch (err) {
        if (err.code !== 'ENOENT')
            throw err;
    }
    const generated = node_crypto_1.default.randomBytes(48).toString('base64url');
    node_fs_1.default.writeFileSync(file, generated, { mode: 0o600 });
    warnings.push(`JWT_SECRET is not set: generated a random secret in ${file}; set JWT_SECRET before running more than one instance`);
    return generated;
}
function parseTrustProxy(value) {
    if (value === undefined || value === 'false')
        return false;
    if (value === 'true')
        return true;
    if (/^\d+$/.test(value))
        return Number(value);
    return value;
}
//# sourceMappingURL=config.js.map