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
/** The From address: EMAIL_FROM, else no-reply at the public origin's host name. */
export declare function defaultFrom(config: Pick<Config, 'emailFrom' | 'baseUrl'>): string;
/**
 * The project's mailer: nodemailer over SMTP_URL / EMAIL_FROM. (When the email plugin lands, its
 * settings are the fallback when SMTP_URL is not set; the environment wins, CONTRACT 1.)
 * A failing mail service never throws to the caller: callers' answers do not depend on delivery.
 */
export declare function createMailer({ config, logger }: {
    config: Config;
    logger: Logger;
}): Mailer;
