"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.defaultFrom = defaultFrom;
exports.createMailer = createMailer;
const nodemailer_1 = __importDefault(require("nodemailer"));
// A dead or stalled mail server must not keep work pending for minutes (nodemailer's defaults).
const CONNECTION_TIMEOUT_MS = 10_000;
const GREETING_TIMEOUT_MS = 10_000;
const SOCKET_TIMEOUT_MS = 20_000;
/** The From address: EMAIL_FROM, else no-reply at the public origin's host name. */
function defaultFrom(config) {
    if (config.emailFrom)
        return config.emailFrom;
    return `no-reply@${new URL(config.baseUrl).hostname}`;
}
/** Masks the recipient's local part for logs: `a***@example.com`. */
function maskAddress(address) {
    const at = address.lastIndexOf('@');
    if (at <= 0)
        return '***';
    return `${address[0]}***${address.slice(at)}`;
}
/**
 * The project's mailer: nodemailer over SMTP_URL / EMAIL_FROM. (When the email plugin lands, its
 * settings are the fallback when SMTP_URL is not set; the environment wins, CONTRACT 1.)
 * A failing mail service never throws to the caller: callers' answers do not depend on delivery.
 */
function createMailer({ config, logger }) {
    const log = logger.child({ component: 'mailer' });
    let transporter;
    function transport() {
        if (!config.smtpUrl)
            return undefined;
        transporter ??= nodemailer_1.default.createTransport({
            url: config.smtpUrl,
            connectionTimeout: CONNECTION_TIMEOUT_MS,
            greetingTimeout: GREETING_TIMEOUT_MS,
            socketTimeout: SOCKET_TIMEOUT_MS,
        });
        return transporter;
    }
    return {
        isConfigured: () => config.smtpUrl !== undefined,
        async send({ to, subject, text, html }) {
            const started = Date.now();
            try {
                const mail = transport();
                if (!mail) {
                    log.warn({ to: maskAddress(to), subject }, 'mail not sent: no mail service is configured (SMTP_URL)');
                    return false;
                }
                const info = (await mail.sendMail({ from: defaultFrom(config), to, subject, text, html }));
                log.info({ to: maskAddress(to), subject, messageId: info.messageId, ms: Date.now() - started }, 'mail sent');
                return true;
            }
            catch (err) {
                // Only the error's message and code: never the body, which may hold a one-time link.
                const { message, code } = err;
                log.error({ to: maskAddress(to), subject, err: { message, code }, ms: Date.now() - started }, 'mail delivery failed');
                return false;
            }
        },
    };
}
//# sourceMappingURL=mailer.js.map