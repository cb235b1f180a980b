import http from 'node:http';
import https from 'node:https';
import { urlToHttpOptions } from 'node:url';
import type { Transporter } from 'nodemailer';
import { publicOnlyConnection } from '../http/outbound-url';

/** One outgoing message with its sender resolved. */
export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/** Where a message goes: an SMTP server, or an HTTP email API (CONTRACT 7). */
export type MailRoute = { kind: 'smtp'; smtpUrl: string; from: string } | { kind: 'http'; apiUrl: string; apiKey: string; from: string };

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

/**
 * The nodemailer transport of the SMTP URL in use. The route is resolved on every send, so a URL an
 * admin changed is used at once: the transport is reused only for the very URL it was built for, and
 * one built for an older URL is closed (only one URL is in use at a time: SMTP_URL or the plugin's).
 */
export class SmtpTransports {
  private current?: { url: string; transporter: Transporter };

  for(smtpUrl: string): Transporter {
    if (this.current?.url === smtpUrl) return this.current.transporter;
    this.current?.transporter.close();
    // Loaded at the first SMTP send: most instances never send mail, and the module costs start time and memory.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const nodemailer = require('nodemailer') as typeof import('nodemailer');
    const transporter = nodemailer.createTransport({
      url: smtpUrl,
      connectionTimeout: CONNECTION_TIMEOUT_MS,
      greetingTimeout: GREETING_TIMEOUT_MS,
      socketTimeout: SOCKET_TIMEOUT_MS,
    });
    this.current = { url: smtpUrl, transporter };
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
