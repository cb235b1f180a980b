import pino, { type Logger } from 'pino';

/**
 * Keys that may carry credentials. pino removes them before a line is written, at the top of a logged
 * object and up to three levels down (pino's paths name depths; none of our log calls nest deeper), so a
 * careless `log.info({ body })` or `log.warn({ plugin: { settings } })` still leaks nothing.
 */
const SECRET_KEYS = [
  'password',
  'newPassword',
  'passwordHash',
  'token',
  'accessToken',
  'refreshToken',
  'code',
  'secret',
  'clientSecret',
  'apiKey',
  'smtpUrl',
  'authorization',
  'cookie',
  'body',
];
const DEPTHS = ['', '*.', '*.*.', '*.*.*.'];

const REDACTED_PATHS = ['res.headers["set-cookie"]', ...DEPTHS.flatMap((depth) => SECRET_KEYS.map((key) => `${depth}${key}`))];

/** A logger with credentials redacted: JSON lines to the destination (standard output by default). */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino({ level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }, destination);
}

/**
 * The service's logger on standard output: JSON lines in blocks (bufferedStdout), or with LOG_FORMAT=pretty
 * (`npm run dev`) readable lines: local time, level, message and the line's fields on one line. pino-pretty
 * is a development dependency; where it is not installed (a production install), the JSON lines stay and
 * the first line says why. Redaction is the same either way: pino removes the keys before formatting.
 */
export function createProcessLogger(level: string, format: 'json' | 'pretty'): Logger {
  const pretty = format === 'pretty' ? prettyStdout() : null;
  const logger = createLogger(level, pretty ?? bufferedStdout());
  if (format === 'pretty' && !pretty) logger.warn('LOG_FORMAT=pretty needs pino-pretty (a development dependency): writing JSON lines');
  return logger;
}

function prettyStdout(): pino.DestinationStream | null {
  let pretty: typeof import('pino-pretty');
  try {
    // Loaded only when asked for: a production install has no pino-pretty.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    pretty = require('pino-pretty') as typeof import('pino-pretty');
  } catch {
    return null;
  }
  return pretty.build({
    colorize: process.stdout.isTTY === true,
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname',
    // Each line at once: a development console, where a line that waits for a block helps nobody.
    sync: true,
  });
}

const LOG_BLOCK_BYTES = 4096;
const LOG_FLUSH_MS = 1000;

/**
 * Standard output written in blocks of up to 4 KiB instead of one write system call per line: under load
 * the per-line write cost more than the rest of the access log. Lines wait at most a second, and are
 * flushed when the process exits (also through process.exit), so shutdown and start failures lose none.
 */
export function bufferedStdout(): pino.DestinationStream {
  const destination = pino.destination({ dest: 1, minLength: LOG_BLOCK_BYTES, sync: true });
  setInterval(() => destination.flush(), LOG_FLUSH_MS).unref();
  process.on('exit', () => destination.flushSync());
  return destination;
}

// Any parameter whose name contains one of these (access_token, client_secret, apiKey, code_verifier, …):
// a harmless value hidden now and then costs less than a credential written to a log.
const SENSITIVE_QUERY_KEYS = /token|code|state|pass|secret|key|verifier|sig/i;

/** A URL safe to log: the values of credential-like query parameters are replaced. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q === -1) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  for (const key of [...params.keys()]) {
    if (SENSITIVE_QUERY_KEYS.test(key)) params.set(key, '[redacted]');
  }
  return `${url.slice(0, q)}?${params.toString()}`;
}
