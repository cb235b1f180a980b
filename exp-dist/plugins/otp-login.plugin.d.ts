import { z } from 'zod';
/** A colour safe to put into an email's inline style: hex, rgb()/rgba() or a CSS colour name. */
export declare function isCssColor(value: string): boolean;
/** SPEC 2.7 OTP plugin settings with CONTRACT 4's keys. */
export declare const otpLoginSettings: z.ZodObject<{
    codeLength: z.ZodDefault<z.ZodInt>;
    codeExpiryMinutes: z.ZodDefault<z.ZodInt>;
    maxAttempts: z.ZodDefault<z.ZodInt>;
    rateLimitPerHour: z.ZodDefault<z.ZodInt>;
    allowNewUserRegistration: z.ZodDefault<z.ZodBoolean>;
    logoUrl: z.ZodOptional<z.ZodURL>;
    logoWidth: z.ZodDefault<z.ZodInt>;
    logoBorderWidth: z.ZodDefault<z.ZodInt>;
    logoBorderColor: z.ZodDefault<z.ZodString>;
    loginUrl: z.ZodOptional<z.ZodURL>;
    loginButtonText: z.ZodOptional<z.ZodString>;
}, z.core.$strict>;
export type OtpLoginSettings = z.output<typeof otpLoginSettings>;
export declare const otpLoginPlugin: import("./plugin-definition").PluginDefinition<z.ZodObject<{
    codeLength: z.ZodDefault<z.ZodInt>;
    codeExpiryMinutes: z.ZodDefault<z.ZodInt>;
    maxAttempts: z.ZodDefault<z.ZodInt>;
    rateLimitPerHour: z.ZodDefault<z.ZodInt>;
    allowNewUserRegistration: z.ZodDefault<z.ZodBoolean>;
    logoUrl: z.ZodOptional<z.ZodURL>;
    logoWidth: z.ZodDefault<z.ZodInt>;
    logoBorderWidth: z.ZodDefault<z.ZodInt>;
    logoBorderColor: z.ZodDefault<z.ZodString>;
    loginUrl: z.ZodOptional<z.ZodURL>;
    loginButtonText: z.ZodOptional<z.ZodString>;
}, z.core.$strict>>;
