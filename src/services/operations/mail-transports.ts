import http from 'node:http';
import type net from 'node:net';
import https from 'node:https';
import { urlToHttpOptions } from 'node:url';
import type { Transporter } from 'nodemailer';
import { connectPublicOnly, publicOnlyConnection } from '../../http/outbound-url';

/** One outgoing message with its sender resolved. */
export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/**
 * Where a message goes: an SMTP server, or an HTTP email API (CONTRACT 7). `publicOnly`: the SMTP host must be
 * a public address when the connection is made (an admin-entered URL; SMTP_URL is the operator's and trusted).
 */
export type MailRoute = { kind: 'smtp'; smtpUrl: string; from: string; publicOnly: boolean } | { kind: 'http'; apiUrl: string; apiKey: string; from: string };

/** A failed delivery whose message is safe to log (no credentials, no body). */
export class MailDeliveryError extends Error {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'MailDeliveryError';
  }
}

// A dead or stalled mail service must not keep work pending for minutes (nodemailer's defaults).
const CONNECTION_TIMEOUT_MS = 10_000;
const GREETING_TIMEOUT_MS = 10_000;
const SOCKET_TIMEOUT_MS = 20_000;
const HTTP_TIMEOUT_MS = 15_000;

type SocketCallback = (err: Error | null, socket?: { connection: net.Socket }) => void;

/**
 * nodemailer's `getSocket` hook, called for every connection it makes: the SMTP host is resolved and judged
 * here, and nodemailer gets a socket already connected to a checked address (it still speaks TLS to the host
 * name, so certificates are verified against the name as usual).
 */
function publicOnlySmtpSocket(options: { host?: string; port?: number | string; secure?: boolean }, callback: SocketCallback): void {
  // nodemailer's own defaults: 465 for implicit TLS, else 587.
  const port = Number(options.port) || (options.secure ? 465 : 587);
  connectPublicOnly(options.host ?? 'localhost', port, CONNECTION_TIMEOUT_MS).then(
    (connection) => callback(null, { connection }),
    (err: Error) => callback(err),
  );
}

/**
 * The nodemailer transport of the SMTP route in use. The route is resolved on every send, so a URL an
 * admin changed is used at once: the transport is reused only for the very route it was built for, and
 * one built for an older route is closed (only one URL is in use at a time: SMTP_URL or the plugin's).
 */
export class SmtpTransports {
  private current?: { url: string; publicOnly: boolean; transporter: Transporter };

  for(route: Extract<MailRoute, { kind: 'smtp' }>): Transporter {
    const { smtpUrl, publicOnly } = route;
    if (this.current?.url === smtpUrl && this.current.publicOnly === publicOnly) return this.current.transporter;
    this.current?.transporter.close();
    // Loaded at the first SMTP send: most instances never send mail, and the module costs start time and memory.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const nodemailer = require('nodemailer') as typeof import('nodemailer');
    const transporter = nodemailer.createTransport({
      url: smtpUrl,
      connectionTimeout: CONNECTION_TIMEOUT_MS,
      greetingTimeout: GREETING_TIMEOUT_MS,
      socketTimeout: SOCKET_TIMEOUT_MS,
      ...(publicOnly ? { getSocket: publicOnlySmtpSocket } : {}),
    });
    this.current = { url: smtpUrl, publicOnly, transporter };
    return transporter;
  }
}

/** Sends over SMTP; resolves the server's message id. */
export async function sendSmtp(transporter: Transporter, mail: OutgoingMail): Promise<string | undefined> {
  const info = (await transporter.sendMail(mail)) as { messageId?: string };
  return info.messageId;
}

/** POSTs a JSON body and resolves the answer's status; the body is drained unread (a provider may echo the request). */
function postJson(url: URL, headers: Record<string, string>, body: string, allowPrivate: boolean): Promise<number> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const request = client.request(
      {
        ...urlToHttpOptions(url),
        ...(allowPrivate ? {} : publicOnlyConnection(url)),
        method: 'POST',
        headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
        signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
      },
      (response) => {
        response.on('error', reject);
        response.on('end', () => resolve(response.statusCode ?? 0));
        response.resume();
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/**
 * Sends through an HTTP email API: `POST apiUrl` with `Authorization: Bearer <apiKey>` and JSON
 * `{ from, to, subject, html, text }`. Any non-2xx answer is a failure (a redirect too: it is never
 * followed); its body is not read into the error. Unless `allowPrivate`, the connection is refused
 * when the address actually dialled is not public (judged after resolution, so DNS rebinding of a
 * name saved while it pointed elsewhere gains nothing).
 */
export async function sendHttp(route: Extract<MailRoute, { kind: 'http' }>, mail: OutgoingMail, options: { allowPrivate: boolean }): Promise<void> {
  let status: number;
  try {
    const headers = { Authorization: `Bearer ${route.apiKey}`, 'Content-Type': 'application/json', Accept: 'application/json' };
    const body = JSON.stringify({ from: mail.from, to: mail.to, subject: mail.subject, html: mail.html ?? '', text: mail.text });
    status = await postJson(new URL(route.apiUrl), headers, body, options.allowPrivate);
  } catch (err) {
    const { name, code } = err as { name?: string; code?: unknown };
    throw new MailDeliveryError(`email API request failed: ${name ?? 'Error'}`, typeof code === 'string' ? code : undefined);
  }
  if (status < 200 || status > 299) throw new MailDeliveryError(`email API answered ${status}`, `HTTP_${status}`);
}
