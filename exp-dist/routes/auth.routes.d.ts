import { z } from 'zod';
import type { Container } from '../container';
declare const loginBody: z.ZodObject<{
    email: z.ZodPipe<z.ZodString, z.ZodEmail>;
    password: z.ZodString;
    redirect: z.ZodOptional<z.ZodString>;
}, z.core.$strict>;
/** Known keys are checked here; the registrationFields pass through to the profile validator, anything else is ignored. */
declare const registerBody: z.ZodObject<{
    email: z.ZodPipe<z.ZodString, z.ZodEmail>;
    password: z.ZodString;
    username: z.ZodOptional<z.ZodPipe<z.ZodString, z.ZodTransform<string | undefined, string>>>;
    firstName: z.ZodOptional<z.ZodPipe<z.ZodString, z.ZodTransform<string | undefined, string>>>;
    lastName: z.ZodOptional<z.ZodPipe<z.ZodString, z.ZodTransform<string | undefined, string>>>;
}, z.core.$loose>;
declare const seedAdminBody: z.ZodObject<{
    email: z.ZodOptional<z.ZodPipe<z.ZodString, z.ZodEmail>>;
    password: z.ZodOptional<z.ZodString>;
}, z.core.$strict>;
export type LoginBody = z.infer<typeof loginBody>;
export type RegisterBody = z.infer<typeof registerBody>;
export type SeedAdminBody = z.infer<typeof seedAdminBody>;
/** SPEC 4.1, 4.4, 4.6 and CONTRACT 4: password sign-in and JWT sessions. Mounted at /auth. */
export declare function authRoutes(container: Container): import("express-serve-static-core").Router;
export {};
