import { type EmailSettings } from './email.plugin';
import { type OtpLoginSettings } from './otp-login.plugin';
import { type OAuthProvidersSettings } from './oauth-providers.plugin';
/** Every plugin the service knows, in the order the admin pages list them. */
export declare const PLUGINS: readonly [import("./plugin-definition").PluginDefinition<import("zod").ZodObject<{
    smtpUrl: import("zod").ZodOptional<import("zod").ZodString>;
    apiKey: import("zod").ZodOptional<import("zod").ZodString>;
    apiUrl: import("zod").ZodOptional<import("zod").ZodURL>;
    fromEmail: import("zod").ZodDefault<import("zod").ZodUnion<readonly [import("zod").ZodLiteral<"">, import("zod").ZodEmail]>>;
    fromName: import("zod").ZodDefault<import("zod").ZodString>;
}, import("zod/v4/core").$strict>>, import("./plugin-definition").PluginDefinition<import("zod").ZodObject<{
    codeLength: import("zod").ZodDefault<import("zod").ZodInt>;
    codeExpiryMinutes: import("zod").ZodDefault<import("zod").ZodInt>;
    maxAttempts: import("zod").ZodDefault<import("zod").ZodInt>;
    rateLimitPerHour: import("zod").ZodDefault<import("zod").ZodInt>;
    allowNewUserRegistration: import("zod").ZodDefault<import("zod").ZodBoolean>;
    logoUrl: import("zod").ZodOptional<import("zod").ZodURL>;
    logoWidth: import("zod").ZodDefault<import("zod").ZodInt>;
    logoBorderWidth: import("zod").ZodDefault<import("zod").ZodInt>;
    logoBorderColor: import("zod").ZodDefault<import("zod").ZodString>;
    loginUrl: import("zod").ZodOptional<import("zod").ZodURL>;
    loginButtonText: import("zod").ZodOptional<import("zod").ZodString>;
}, import("zod/v4/core").$strict>>, import("./plugin-definition").PluginDefinition<import("zod").ZodObject<{
    providers: import("zod").ZodPrefault<import("zod").ZodObject<{
        github: import("zod").ZodPrefault<import("zod").ZodObject<{
            clientId: import("zod").ZodDefault<import("zod").ZodString>;
            clientSecret: import("zod").ZodDefault<import("zod").ZodString>;
            enabled: import("zod").ZodDefault<import("zod").ZodBoolean>;
            authorizationURL: import("zod").ZodOptional<import("zod").ZodURL>;
            tokenURL: import("zod").ZodOptional<import("zod").ZodURL>;
            userProfileURL: import("zod").ZodOptional<import("zod").ZodURL>;
            userEmailsURL: import("zod").ZodOptional<import("zod").ZodURL>;
        }, import("zod/v4/core").$strict>>;
        google: import("zod").ZodPrefault<import("zod").ZodObject<{
            clientId: import("zod").ZodDefault<import("zod").ZodString>;
            clientSecret: import("zod").ZodDefault<import("zod").ZodString>;
            enabled: import("zod").ZodDefault<import("zod").ZodBoolean>;
            authorizationURL: import("zod").ZodOptional<import("zod").ZodURL>;
            tokenURL: import("zod").ZodOptional<import("zod").ZodURL>;
            userProfileURL: import("zod").ZodOptional<import("zod").ZodURL>;
            userEmailsURL: import("zod").ZodOptional<import("zod").ZodURL>;
        }, import("zod/v4/core").$strict>>;
    }, import("zod/v4/core").$strict>>;
}, import("zod/v4/core").$strict>>];
export declare const PLUGIN_NAMES: ["email", "otp-login", "oauth-providers"];
/** The settings type of each plugin, by name (what `plugins.settingsOf(name)` answers). */
export interface PluginSettingsMap {
    email: EmailSettings;
    'otp-login': OtpLoginSettings;
    'oauth-providers': OAuthProvidersSettings;
}
export type PluginName = keyof PluginSettingsMap;
export { SECRET_MASK } from './plugin-definition';
export type { EmailSettings, OtpLoginSettings, OAuthProvidersSettings };
export type { OAuthProviderName, OAuthProviderSettings } from './oauth-providers.plugin';
