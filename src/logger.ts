import pino, { type Logger } from 'pino';

/**
 * Paths that may carry credentials. pino removes them before a line is written, wherever they
 * appear in a logged object, so a careless `log.info({ body })` still leaks nothing.
 */
const SECRET_KEYS = ['password', 'newPassword', 'passwordHash', 'token', 'code', 'secret', 'clientSecret', 'apiKey', 'smtpUrl', 'body'];

const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  ...SECRET_KEYS,
  ...SECRET_KEYS.map((key) => `*.${key}`),
];

/** The process logger: JSON lines, credentials redacted. */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino({ level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }, destination);
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

const SENSITIVE_QUERY_KEYS = /^(token|code|state|password|secret|key|access_token|id_token)$/i;

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
