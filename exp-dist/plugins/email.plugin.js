"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.emailPlugin = exports.emailSettings = void 0;
const zod_1 = require("zod");
const plugin_definition_1 = require("./plugin-definition");
/**
 * Outgoing mail: SMTP (`smtpUrl`) or an HTTP email API (`apiKey`, `apiUrl`). SMTP_URL / EMAIL_FROM in
 * the environment win over these settings (CONTRACT 1). An empty `fromEmail` means "not set": the
 * mailer then uses EMAIL_FROM or no-reply at the public host.
 */
exports.emailSettings = zod_1.z.strictObject({
    smtpUrl: zod_1.z
        .string()
        .max(1024)
        .refine((value) => /^smtps?:\/\/[^\s]+$/.test(value) && URL.canParse(value), { message: 'must be an smtp:// or smtps:// URL' })
        .optional(),
    apiKey: zod_1.z.string().min(1).max(1024).optional(),
    apiUrl: zod_1.z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' }).max(1024).optional(),
    fromEmail: zod_1.z.union([zod_1.z.literal(''), zod_1.z.email({ message: 'must be an email address' }).max(255)]).default(''),
    fromName: zod_1.z.string().max(100).default(''),
});
exports.emailPlugin = (0, plugin_definition_1.definePlugin)({
    name: 'email',
    description: 'Outgoing email (SMTP or an HTTP email API) for codes, magic links and password resets',
    settings: exports.emailSettings,
    secrets: [
        { path: ['apiKey'], kind: 'value' },
        { path: ['smtpUrl'], kind: 'url-password' },
    ],
});
//# sourceMappingURL=email.plugin.js.map