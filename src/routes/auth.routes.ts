import { z } from 'zod';
import type { RequestHandler } from 'express';
import type { Container } from '../container';
import { createApiRouter } from '../http/api-router';
import { createAuthController } from '../controllers/auth.controller';
import { noStore } from '../auth/cookies';
import { ROLES } from '../models';

const email = z.string().trim().toLowerCase().max(255).pipe(z.email({ message: 'must be a valid email address' }));
/** Optional text from JSON or a form: trimmed, and an empty form input counts as absent. */
const optionalText = (min: number, max: number) =>
  z
    .string()
    .trim()
    .max(max, { message: `must be at most ${max} characters` })
    .refine((value) => value === '' || value.length >= min, { message: `must be at least ${min} characters` })
    .transform((value) => (value === '' ? undefined : value))
    .optional();

const loginBody = z.strictObject({
  email,
  password: z.string().min(1, { message: 'is required' }).max(1024),
  /** Form posts only: where to go after signing in (same-origin relative paths; anything else means /admin). */
  redirect: z.string().max(2048).optional(),
});
/** Known keys are checked here; the registrationFields pass through to the profile validator, anything else is ignored. */
const registerBody = z.looseObject({
  email,
  password: z.string().min(8, { message: 'must be at least 8 characters' }).max(128, { message: 'must be at most 128 characters' }),
  username: optionalText(3, 64),
  firstName: optionalText(0, 100),
  lastName: optionalText(0, 100),
});
const seedAdminBody = z.strictObject({
  email: email.optional(),
  password: z.string().min(8, { message: 'must be at least 8 characters' }).max(128, { message: 'must be at most 128 characters' }).optional(),
});

export type LoginBody = z.infer<typeof loginBody>;
export type RegisterBody = z.infer<typeof registerBody>;
export type SeedAdminBody = z.infer<typeof seedAdminBody>;

const publicUser = z.object({
  id: z.string(),
  email: z.string(),
  username: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  role: z.enum(ROLES),
});
const userWithCustomFields = publicUser.catchall(z.unknown());
const loginResponse = z.object({ user: userWithCustomFields, token: z.string() });
const refreshResponse = z.object({ token: z.string(), expiresIn: z.number().int() });
const success = z.object({ success: z.literal(true) });
const seedAdminResponse = z.object({ message: z.string(), user: publicUser });

/** Every /auth answer may carry or set a credential (or personal data): never cached. */
const noStoreAll: RequestHandler = (_req, res, next) => {
  noStore(res);
  next();
};

/** SPEC 4.1, 4.4, 4.6 and CONTRACT 4: password sign-in and JWT sessions. Mounted at /auth. */
export function authRoutes(container: Container) {
  const { guards, limits } = container;
  const auth = createAuthController(container);
  const api = createApiRouter(container.docs, '/auth');
  const tags = ['Auth'];
  api.router.use(noStoreAll);

  // HTML pages: not JSON routes, so not in the OpenAPI document.
  api.router.get('/login', auth.loginPage);
  api.router.get('/register', auth.registerPage);

  api.post('/login', { summary: 'Sign in with email and password', tags, body: loginBody, form: true, responses: { 200: { description: 'Login response; sets auth_token and csrf_token', schema: loginResponse }, 302: 'form post: to /admin or the redirect field', 400: 'validation failed', 401: 'Invalid email or password', 429: 'rate limited' } }, limits.login, auth.login);
  api.post('/register', { summary: 'Register (the first user becomes admin)', tags, body: registerBody, form: true, responses: { 201: { description: 'Login response; sets the cookies', schema: loginResponse }, 400: 'validation failed', 403: 'Registration is currently disabled', 409: 'User with this email or username already exists', 429: 'rate limited' } }, limits.register, auth.register);
  api.get('/me', { summary: 'The signed-in user with custom profile fields', tags, auth: true, responses: { 200: { description: 'user', schema: z.object({ user: userWithCustomFields }) }, 401: 'Authentication required' } }, guards.requireAuth, auth.me);
  api.post('/refresh', { summary: 'A new token for a valid one, or one expired within the grace window', tags, auth: true, responses: { 200: { description: 'Refresh response; sets the cookies', schema: refreshResponse }, 401: 'Invalid or expired token / User is not active', 429: 'rate limited' } }, limits.refresh, auth.refresh);
  api.post('/logout', { summary: 'Sign out: this token stops working at once', tags, auth: true, form: true, responses: { 200: { description: 'signed out; cookies cleared', schema: success }, 302: 'form post: to the sign-in page' } }, guards.optionalAuth, auth.logout);
  api.post('/logout-all', { summary: "Sign out everywhere: every token of the user ends", tags, auth: true, form: true, responses: { 200: { description: 'signed out everywhere', schema: success }, 401: 'Authentication required' } }, guards.requireAuth, auth.logoutAll);
  api.post('/seed-admin', { summary: 'Create the first admin (only while no admin exists)', tags, body: seedAdminBody, responses: { 201: { description: 'created', schema: seedAdminResponse }, 400: 'validation failed', 409: 'An admin user already exists', 429: 'rate limited' } }, limits.seedAdmin, auth.seedAdmin);

  // After the routes: failed form posts get their page back instead of the generic error page.
  api.router.use(auth.formErrorPages);
  return api.router;
}
