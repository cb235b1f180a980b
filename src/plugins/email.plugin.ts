import { z } from 'zod';
import { definePlugin } from './plugin-definition';

const MESSAGES = {
  retypeApiKey: 'must be entered again when the API URL changes',
  retypeSmtpPassword: 'the password must be entered again when the SMTP server (scheme, host or port) changes',
} as const;

/**
 * Outgoing mail: SMTP (`smtpUrl`) or an HTTP email API (`apiKey`, `apiUrl`). SMTP_URL / EMAIL_FROM in
 * the environment win over these settings (CONTRACT 1). An empty `fromEmail` means "not set": the
 * mailer then uses EMAIL_FROM or no-reply at the public host.
 */
export const emailSettings = z.strictObject({
  smtpUrl: z
    .string()
    .max(1024)
    .refine((value) => /^smtps?:\/\/[^\s]+$/.test(value) && URL.canParse(value), { message: 'must be an smtp:// or smtps:// URL' })
    .optional(),
  apiKey: z.string().min(1).max(1024).optional(),
  apiUrl: z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' }).max(1024).optional(),
  fromEmail: z.union([z.literal(''), z.email({ message: 'must be an email address' }).max(255)]).default(''),
  fromName: z.string().max(100).default(''),
});
export type EmailSettings = z.output<typeof emailSettings>;

export const emailPlugin = definePlugin({
  name: 'email',
  description: 'Outgoing email (SMTP or an HTTP email API) for codes, magic links and password resets',
  settings: emailSettings,
  secrets: [
    { path: ['apiKey'], kind: 'value', sentTo: [['apiUrl']], retypeMessage: MESSAGES.retypeApiKey },
    { path: ['smtpUrl'], kind: 'url-password', sentTo: [['smtpUrl']], retypeMessage: MESSAGES.retypeSmtpPassword },
  ],
  outboundUrls: [['smtpUrl'], ['apiUrl']],
});
