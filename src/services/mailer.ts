import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from 'pino';
import type { Config } from '../config/config';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  /** True when mail can be sent (SMTP_URL set). */
  isConfigured(): boolean;
  /** Sends one message; resolves false on any failure (logged without the body), never rejects. */
  send(message: MailMessage): Promise<boolean>;
}

// A dead or stalled mail server must not keep work pending for minutes (nodemailer's defaults).
const CONNECTION_TIMEOUT_MS = 10_000;
const GREETING_TIMEOUT_MS = 10_000;
const SOCKET_TIMEOUT_MS = 20_000;

/** The From address: EMAIL_FROM, else no-reply at the public origin's host name. */
export function defaultFrom(config: Pick<Config, 'emailFrom' | 'baseUrl'>): string {
  if (config.emailFrom) return config.emailFrom;
  return `no-reply@${new URL(config.baseUrl).hostname}`;
}

/** Masks the recipient's local part for logs: `a***@example.com`. */
function maskAddress(address: string): string {
  const at = address.lastIndexOf('@');
  if (at <= 0) return '***';
  return `${address[0]}***${address.slice(at)}`;
}

/**
 * The project's mailer: nodemailer over SMTP_URL / EMAIL_FROM. (When the email plugin lands, its
 * settings are the fallback when SMTP_URL is not set; the environment wins, CONTRACT 1.)
 * A failing mail service never throws to the caller: callers' answers do not depend on delivery.
 */
export function createMailer({ config, logger }: { config: Config; logger: Logger }): Mailer {
  const log = logger.child({ component: 'mailer' });
  let transporter: Transporter | undefined;

  function transport(): Transporter | undefined {
    if (!config.smtpUrl) return undefined;
    transporter ??= nodemailer.createTransport({
      url: config.smtpUrl,
      connectionTimeout: CONNECTION_TIMEOUT_MS,
      greetingTimeout: GREETING_TIMEOUT_MS,
      socketTimeout: SOCKET_TIMEOUT_MS,
    });
    return transporter;
  }

  return {
    isConfigured: () => config.smtpUrl !== undefined,

    async send({ to, subject, text, html }: MailMessage): Promise<boolean> {
      const started = Date.now();
      try {
        const mail = transport();
        if (!mail) {
          log.warn({ to: maskAddress(to), subject }, 'mail not sent: no mail service is configured (SMTP_URL)');
          return false;
        }
        const info = (await mail.sendMail({ from: defaultFrom(config), to, subject, text, html })) as { messageId?: string };
        log.info({ to: maskAddress(to), subject, messageId: info.messageId, ms: Date.now() - started }, 'mail sent');
        return true;
      } catch (err) {
        // Only the error's message and code: never the body, which may hold a one-time link.
        const { message, code } = err as { message?: string; code?: string };
        log.error({ to: maskAddress(to), subject, err: { message, code }, ms: Date.now() - started }, 'mail delivery failed');
        return false;
      }
    },
  };
}
