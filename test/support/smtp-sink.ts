import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** One message received by the sink, decoded enough for assertions. */
export interface SinkMessage {
  /** Envelope sender and recipients (what the SMTP client said in MAIL FROM / RCPT TO). */
  envelope: { from: string; to: string[] };
  /** Header names lower-cased; encoded words decoded. */
  headers: Record<string, string>;
  from: string;
  to: string;
  subject: string;
  /** The text/plain part (transfer encoding decoded), '' when absent. */
  text: string;
  /** The text/html part, '' when absent. */
  html: string;
  raw: string;
}

export interface SmtpSink {
  /** `smtp://127.0.0.1:<port>`: put it in SMTP_URL. */
  url: string;
  port: number;
  messages: SinkMessage[];
  /** While true, every message is refused with `451 4.3.0 try again later` (a mail service's temporary failure). */
  refusing: boolean;
  /** How many messages were refused so far. */
  refused: number;
  /** Resolves with the first message (already received or arriving later) matching the predicate. */
  waitFor(predicate: (message: SinkMessage) => boolean, timeoutMs?: number): Promise<SinkMessage>;
  stop(): Promise<void>;
}

// --- a small MIME reader: enough for what nodemailer writes (multipart, quoted-printable, base64) ---

function decodeQuotedPrintable(input: string): Buffer {
  const softBreaksRemoved = input.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < softBreaksRemoved.length; i++) {
    const ch = softBreaksRemoved[i];
    const hex = softBreaksRemoved.slice(i + 1, i + 3);
    if (ch === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(ch, 'utf8'));
    }
  }
  return Buffer.from(bytes);
}

function decodeEncodedWords(value: string): string {
  return value.replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=\s*/g, (_all, _charset: string, encoding: string, text: string) =>
    encoding.toUpperCase() === 'B'
      ? Buffer.from(text, 'base64').toString('utf8')
      : decodeQuotedPrintable(text.replace(/_/g, ' ')).toString('utf8'),
  );
}

function splitHeadersAndBody(raw: string): { headers: Record<string, string>; body: string } {
  const separator = raw.search(/\r?\n\r?\n/);
  const head = separator === -1 ? raw : raw.slice(0, separator);
  const body = separator === -1 ? '' : raw.slice(separator).replace(/^\r?\n\r?\n/, '');
  const headers: Record<string, string> = {};
  // Unfold continuation lines, then one header per line.
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    headers[name] ??= decodeEncodedWords(line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function headerParam(value: string | undefined, param: string): string | undefined {
  const match = value?.match(new RegExp(`${param}="?([^";]+)"?`, 'i'));
  return match?.[1];
}

function decodeBody(body: string, encoding: string | undefined): string {
  switch ((encoding ?? '7bit').toLowerCase()) {
    case 'quoted-printable':
      return decodeQuotedPrintable(body).toString('utf8');
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    default:
      return body;
  }
}

/** Collects the text/plain and text/html leaves of a (possibly multipart) entity. */
function collectParts(raw: string, out: { text: string; html: string }): void {
  const { headers, body } = splitHeadersAndBody(raw);
  const type = (headers['content-type'] ?? 'text/plain').toLowerCase();
  if (type.startsWith('multipart/')) {
    const boundary = headerParam(headers['content-type'], 'boundary');
    if (!boundary) return;
    const parts = body.split(`--${boundary}`).slice(1);
    for (const part of parts) {
      if (part.startsWith('--')) break;
      collectParts(part.replace(/^\r?\n/, ''), out);
    }
    return;
  }
  const decoded = decodeBody(body, headers['content-transfer-encoding']);
  if (type.startsWith('text/html')) out.html ||= decoded;
  else if (type.startsWith('text/plain')) out.text ||= decoded;
}

export function parseMessage(raw: string, envelope: SinkMessage['envelope']): SinkMessage {
  const { headers } = splitHeadersAndBody(raw);
  const parts = { text: '', html: '' };
  collectParts(raw, parts);
  return {
    envelope,
    headers,
    from: headers.from ?? '',
    to: headers.to ?? '',
    subject: headers.subject ?? '',
    text: parts.text,
    html: parts.html,
    raw,
  };
}

/** A real SMTP listener on 127.0.0.1 (random port) that keeps every message it receives. */
export async function startSmtpSink(): Promise<SmtpSink> {
  const messages: SinkMessage[] = [];
  const waiters = new Set<{ predicate: (m: SinkMessage) => boolean; resolve: (m: SinkMessage) => void }>();

  const state = { refusing: false, refused: 0 };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    // stop() should not wait long for a client that keeps its connection open.
    closeTimeout: 1000,
    onMailFrom(_address, _session, callback) {
      if (!state.refusing) return callback();
      state.refused += 1;
      callback(Object.assign(new Error('try again later'), { responseCode: 451 }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const envelope = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
        };
        const message = parseMessage(Buffer.concat(chunks).toString('utf8'), envelope);
        messages.push(message);
        for (const waiter of [...waiters]) {
          if (waiter.predicate(message)) {
            waiters.delete(waiter);
            waiter.resolve(message);
          }
        }
        callback();
      });
    },
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = (server as unknown as { server: { address(): AddressInfo } }).server.address();

  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    messages,
    get refusing() {
      return state.refusing;
    },
    set refusing(value: boolean) {
      state.refusing = value;
    },
    get refused() {
      return state.refused;
    },
    waitFor(predicate, timeoutMs = 5000) {
      const found = messages.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise<SinkMessage>((resolve, reject) => {
        const waiter = {
          predicate,
          resolve: (m: SinkMessage) => {
            clearTimeout(timer);
            resolve(m);
          },
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`no matching mail within ${timeoutMs} ms (received ${messages.length})`));
        }, timeoutMs);
        waiters.add(waiter);
      });
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** `start()` as the brief names it. */
export const start = startSmtpSink;
