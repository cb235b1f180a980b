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
