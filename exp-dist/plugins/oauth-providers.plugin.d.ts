import { z } from 'zod';
export declare const OAUTH_PROVIDERS: readonly ["github", "google"];
export type OAuthProviderName = (typeof OAUTH_PROVIDERS)[number];
/**
 * One provider's credentials. The URL overrides serve GitHub Enterprise and tests (a loopback
 * provider). An enabled provider needs both its client id and secret.
 */
declare const providerSettings: z.ZodObject<{
    clientId: z.ZodDefault<z.ZodString>;
    clientSecret: z.ZodDefault<z.ZodString>;
    enabled: z.ZodDefault<z.ZodBoolean>;
    authorizationURL: z.ZodOptional<z.ZodURL>;
    tokenURL: z.ZodOptional<z.ZodURL>;
    userProfileURL: z.ZodOptional<z.ZodURL>;
    userEmailsURL: z.ZodOptional<z.ZodURL>;
}, z.core.$strict>;
export type OAuthProviderSettings = z.output<typeof providerSettings>;
export declare const oauthProvidersSettings: z.ZodObject<{
    providers: z.ZodPrefault<z.ZodObject<{
        github: z.ZodPrefault<z.ZodObject<{
            clientId: z.ZodDefault<z.ZodString>;
            clientSecret: z.ZodDefault<z.ZodString>;
            enabled: z.ZodDefault<z.ZodBoolean>;
            authorizationURL: z.ZodOptional<z.ZodURL>;
            tokenURL: z.ZodOptional<z.ZodURL>;
            userProfileURL: z.ZodOptional<z.ZodURL>;
            userEmailsURL: z.ZodOptional<z.ZodURL>;
        }, z.core.$strict>>;
        google: z.ZodPrefault<z.ZodObject<{
            clientId: z.ZodDefault<z.ZodString>;
            clientSecret: z.ZodDefault<z.ZodString>;
            enabled: z.ZodDefault<z.ZodBoolean>;
            authorizationURL: z.ZodOptional<z.ZodURL>;
            tokenURL: z.ZodOptional<z.ZodURL>;
            userProfileURL: z.ZodOptional<z.ZodURL>;
            userEmailsURL: z.ZodOptional<z.ZodURL>;
        }, z.core.$strict>>;
    }, z.core.$strict>>;
}, z.core.$strict>;
export type OAuthProvidersSettings = z.output<typeof oauthProvidersSettings>;
export declare const oauthProvidersPlugin: import("./plugin-definition").PluginDefinition<z.ZodObject<{
    providers: z.ZodPrefault<z.ZodObject<{
        github: z.ZodPrefault<z.ZodObject<{
            clientId: z.ZodDefault<z.ZodString>;
            clientSecret: z.ZodDefault<z.ZodString>;
            enabled: z.ZodDefault<z.ZodBoolean>;
            authorizationURL: z.ZodOptional<z.ZodURL>;
            tokenURL: z.ZodOptional<z.ZodURL>;
            userProfileURL: z.ZodOptional<z.ZodURL>;
            userEmailsURL: z.ZodOptional<z.ZodURL>;
        }, z.core.$strict>>;
        google: z.ZodPrefault<z.ZodObject<{
            clientId: z.ZodDefault<z.ZodString>;
            clientSecret: z.ZodDefault<z.ZodString>;
            enabled: z.ZodDefault<z.ZodBoolean>;
            authorizationURL: z.ZodOptional<z.ZodURL>;
            tokenURL: z.ZodOptional<z.ZodURL>;
            userProfileURL: z.ZodOptional<z.ZodURL>;
            userEmailsURL: z.ZodOptional<z.ZodURL>;
        }, z.core.$strict>>;
    }, z.core.$strict>>;
}, z.core.$strict>>;
export {};
