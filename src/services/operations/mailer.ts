import type { Logger } from 'pino';
import type { Config } from '../../config/config';
import type { PluginRegistry } from './plugin-registry';
import type { Metrics } from '../../metrics/metrics';
import { MailDeliveryError, SmtpTransports, sendHttp, sendSmtp, type MailRoute } from './mail-transports';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/**
 * How one delivery went. `error` is one of two fixed texts (MAIL_NOT_CONFIGURED, MAIL_FAILED): a
 * remote server's status, reply or error code would let an admin probe hosts and ports through the
 * test mail; the detail goes to the server log only.
 */
export type MailResult = { sent: true } | { sent: false; error: string };

export interface Mailer {
  /**
   * True when mail can be sent: SMTP_URL is set, or the active email plugin has an SMTP URL or an API
   * key with an API URL. The one answer OTP, magic links and password reset all ask (read fresh each time).
   */
  isConfigured(): Promise<boolean>;
  /** Sends one message; resolves false on any failure (logged without body or credentials), never rejects. */
  send(message: MailMessage): Promise<boolean>;
  /** Sends one message like `send`, answering why it failed (the admin's "Send test email"). */
  deliver(message: MailMessage): Promise<MailResult>;
}

export const MAIL_NOT_CONFIGURED = 'No mail service is configured (SMTP_URL or the email plugin)';
export const MAIL_FAILED = 'the mail service refused or could not be reached. See the server log.';
// A log line's reason stays short: a transport's text may quote a long server reply.
const MAX_REASON_LENGTH = 160;

/** The From address: EMAIL_FROM, else no-reply at the public origin's host name. */
export function defaultFrom(config: Pick<Config, 'emailFrom' | 'baseUrl'>): string {
  if (config.emailFrom) return config.emailFrom;
  return `no-reply@${new URL(config.baseUrl).hostname}`;
}

/** `"Name" <address>`, or the bare address; the name cannot break out of its header. */
function formatFrom(name: string, address: string): string {
  const clean = name.replace(/[\u0000-\u001f\u007f"\\<>]/g, '').trim();
  return clean ? `"${clean}" <${address}>` : address;
}

/** Masks the recipient's local part for logs: `a***@example.com`. */
function maskAddress(address: string): string {
  const at = address.lastIndexOf('@');
  if (at <= 0) return '***';
  return `${address[0]}***${address.slice(at)}`;
}

/** The credentials a route carries, as they could appear in an error text (raw and URL-decoded). */
function credentialsOf(target: MailRoute): string[] {
  if (target.kind === 'http') return [target.apiKey];
  if (!URL.canParse(target.smtpUrl)) return [target.smtpUrl];
  const { username, password } = new URL(target.smtpUrl);
  return [username, password].flatMap((part) => [part, decodeURIComponent(part)]);
}

/**
 * An error's message and code, with every credential of the route blotted out and the length bounded:
 * what is logged (never shown). A transport's text may quote a server's reply, never the mail's body.
 */
function safeReason(err: unknown, target: MailRoute | undefined): string {
  const { message, code } = err instanceof MailDeliveryError ? err : (err as { message?: unknown; code?: unknown });
  let text = typeof message === 'string' && message !== '' ? message : 'delivery failed';
  for (const secret of target ? credentialsOf(target) : []) if (secret.length >= 3) text = text.split(secret).join('***');
  if (typeof code === 'string' && code !== '' && !text.includes(code)) text = `${text} (${code})`;
  return text.length > MAX_REASON_LENGTH ? `${text.slice(0, MAX_REASON_LENGTH - 1)}…` : text;
}

/**
 * The project's mailer (CONTRACT 7). SMTP_URL / EMAIL_FROM win when set; otherwise the `email` plugin,
 * read through the registry on every send, so an admin's change applies at once on every instance.
 * A failing mail service never throws to the caller: callers' answers do not depend on delivery.
 */
export function createMailer(deps: {
  config: Config;
  logger: Logger;
  plugins: Pick<PluginRegistry, 'isActive' | 'settingsOf'>;
  metrics?: Pick<Metrics, 'mail'>;
}): Mailer {
  const { config, plugins, metrics } = deps;
  const log = deps.logger.child({ component: 'mailer' });
  const smtp = new SmtpTransports();

  /** Where mail goes now, or null when nothing complete is configured. */
  async function route(): Promise<MailRoute | null> {
    if (config.smtpUrl) return { kind: 'smtp', smtpUrl: config.smtpUrl, from: defaultFrom(config), publicOnly: false };
    if (!(await plugins.isActive('email'))) return null;
    const settings = await plugins.settingsOf('email');
    const from = formatFrom(settings.fromName, config.emailFrom ?? (settings.fromEmail || defaultFrom(config)));
    if (settings.smtpUrl) return { kind: 'smtp', smtpUrl: settings.smtpUrl, from, publicOnly: !config.allowPrivateOutbound };
    if (settings.apiKey && settings.apiUrl) return { kind: 'http', apiUrl: settings.apiUrl, apiKey: settings.apiKey, from };
    return null;
  }

  async function deliver({ to, subject, text, html }: MailMessage): Promise<MailResult> {
    const started = Date.now();
    let target: MailRoute | null | undefined;
    try {
      target = await route();
      if (!target) {
        log.warn({ to: maskAddress(to), subject }, 'mail not sent: no mail service is configured (SMTP_URL or the email plugin)');
        metrics?.mail('not_configured');
        return { sent: false, error: MAIL_NOT_CONFIGURED };
      }
      const mail = { from: target.from, to, subject, text, html };
      const messageId =
        target.kind === 'smtp' ? await sendSmtp(smtp.for(target), mail) : await sendHttp(target, mail, { allowPrivate: config.allowPrivateOutbound });
      log.info({ to: maskAddress(to), subject, via: target.kind, messageId, ms: Date.now() - started }, 'mail sent');
      metrics?.mail('sent');
      return { sent: true };
    } catch (err) {
      // Only the error's message and code, credentials blotted out: never the body (a code or a one-time link).
      const reason = safeReason(err, target ?? undefined);
      log.error({ to: maskAddress(to), subject, via: target?.kind, err: { message: reason }, ms: Date.now() - started }, 'mail delivery failed');
      metrics?.mail('failed');
      return { sent: false, error: MAIL_FAILED };
    }
  }

  return {
    isConfigured: async () => {
      try {
        return (await route()) !== null;
      } catch (err) {
        log.error({ err: { message: (err as Error).message } }, 'could not read the email settings');
        return false;
      }
    },
    send: async (message) => (await deliver(message)).sent,
    deliver,
  };
}
