import { z } from 'zod';
/**
 * Outgoing mail: SMTP (`smtpUrl`) or an HTTP email API (`apiKey`, `apiUrl`). SMTP_URL / EMAIL_FROM in
 * the environment win over these settings (CONTRACT 1). An empty `fromEmail` means "not set": the
 * mailer then uses EMAIL_FROM or no-reply at the public host.
 */
export declare const emailSettings: z.ZodObject<{
    smtpUrl: z.ZodOptional<z.ZodString>;
    apiKey: z.ZodOptional<z.ZodString>;
    apiUrl: z.ZodOptional<z.ZodURL>;
    fromEmail: z.ZodDefault<z.ZodUnion<readonly [z.ZodLiteral<"">, z.ZodEmail]>>;
    fromName: z.ZodDefault<z.ZodString>;
}, z.core.$strict>;
export type EmailSettings = z.output<typeof emailSettings>;
export declare const emailPlugin: import("./plugin-definition").PluginDefinition<z.ZodObject<{
    smtpUrl: z.ZodOptional<z.ZodString>;
    apiKey: z.ZodOptional<z.ZodString>;
    apiUrl: z.ZodOptional<z.ZodURL>;
    fromEmail: z.ZodDefault<z.ZodUnion<readonly [z.ZodLiteral<"">, z.ZodEmail]>>;
    fromName: z.ZodDefault<z.ZodString>;
}, z.core.$strict>>;
