"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.authRoutes = authRoutes;
const zod_1 = require("zod");
const api_router_1 = require("../http/api-router");
const auth_controller_1 = require("../controllers/auth.controller");
const cookies_1 = require("../auth/cookies");
const models_1 = require("../models");
const email = zod_1.z.string().trim().toLowerCase().max(255).pipe(zod_1.z.email({ message: 'must be a valid email address' }));
/** Optional text from JSON or a form: trimmed, and an empty form input counts as absent. */
const optionalText = (min, max) => zod_1.z
    .string()
    .trim()
    .max(max, { message: `must be at most ${max} characters` })
    .refine((value) => value === '' || value.length >= min, { message: `must be at least ${min} characters` })
    .transform((value) => (value === '' ? undefined : value))
    .optional();
const loginBody = zod_1.z.strictObject({
    email,
    password: zod_1.z.string().min(1, { message: 'is required' }).max(1024),
    /** Form posts only: where to go after signing in (same-origin relative paths; anything else means /admin). */
    redirect: zod_1.z.string().max(2048).optional(),
});
/** Known keys are checked here; the registrationFields pass through to the profile validator, anything else is ignored. */
const registerBody = zod_1.z.looseObject({
    email,
    password: zod_1.z.string().min(8, { message: 'must be at least 8 characters' }).max(128, { message: 'must be at most 128 characters' }),
    username: optionalText(3, 64),
    firstName: optionalText(0, 100),
    lastName: optionalText(0, 100),
});
const seedAdminBody = zod_1.z.strictObject({
    email: email.optional(),
    password: zod_1.z.string().min(8, { message: 'must be at least 8 characters' }).max(128, { message: 'must be at most 128 characters' }).optional(),
});
const publicUser = zod_1.z.object({
    id: zod_1.z.string(),
    email: zod_1.z.string(),
    username: zod_1.z.string(),
    firstName: zod_1.z.string().nullable(),
    lastName: zod_1.z.string().nullable(),
    role: zod_1.z.enum(models_1.ROLES),
});
const userWithCustomFields = publicUser.catchall(zod_1.z.unknown());
const loginResponse = zod_1.z.object({ user: userWithCustomFields, token: zod_1.z.string() });
const refreshResponse = zod_1.z.object({ token: zod_1.z.string(), expiresIn: zod_1.z.number().int() });
const success = zod_1.z.object({ success: zod_1.z.literal(true) });
const seedAdminResponse = zod_1.z.object({ message: zod_1.z.string(), user: publicUser });
/** Every /auth answer may carry or set a credential (or personal data): never cached. */
const noStoreAll = (_req, res, next) => {
    (0, cookies_1.noStore)(res);
    next();
};
/** SPEC 4.1, 4.4, 4.6 and CONTRACT 4: password sign-in and JWT sessions. Mounted at /auth. */
function authRoutes(container) {
    const { guards, limits } = container;
    const auth = (0, auth_controller_1.createAuthController)(container);
    const api = (0, api_router_1.createApiRouter)(container.docs, '/auth');
    const tags = ['Auth'];
    api.router.use(noStoreAll);
    // HTML pages: not JSON routes, so not in the OpenAPI document.
    api.router.get('/login', auth.loginPage);
    api.router.get('/register', auth.registerPage);
    api.post('/login', { summary: 'Sign in with email and password', tags, body: loginBody, form: true, responses: { 200: { description: 'Login response; sets auth_token and csrf_token', schema: loginResponse }, 302: 'form post: to /admin or the redirect field', 400: 'validation failed', 401: 'Invalid email or password', 429: 'rate limited' } }, limits.login, auth.login);
    api.post('/register', { summary: 'Register (the first user becomes admin)', tags, body: registerBody, form: true, responses: { 201: { description: 'Login response; sets the cookies', schema: loginResponse }, 400: 'validation failed', 403: 'Registration is currently disabled', 409: 'User with this email or username already exists', 429: 'rate limited' } }, limits.register, auth.register);
    api.get('/me', { summary: 'The signed-in user with custom profile fields', tags, auth: true, responses: { 200: { description: 'user', schema: zod_1.z.object({ user: userWithCustomFields }) }, 401: 'Authentication required' } }, guards.requireAuth, auth.me);
    api.post('/refresh', { summary: 'A new token for a valid one, or one expired within the grace window', tags, auth: true, responses: { 200: { description: 'Refresh response; sets the cookies', schema: refreshResponse }, 401: 'Invalid or expired token / User is not active', 429: 'rate limited' } }, limits.refresh, auth.refresh);
    api.post('/logout', { summary: 'Sign out: this token stops working at once', tags, auth: true, form: true, responses: { 200: { description: 'signed out; cookies cleared', schema: success }, 302: 'form post: to the sign-in page' } }, guards.optionalAuth, auth.logout);
    api.post('/logout-all', { summary: "Sign out everywhere: every token of the user ends", tags, auth: true, form: true, responses: { 200: { description: 'signed out everywhere', schema: success }, 401: 'Authentication required' } }, guards.requireAuth, auth.logoutAll);
    api.post('/seed-admin', { summary: 'Create the first admin (only while no admin exists)', tags, body: seedAdminBody, responses: { 201: { description: 'created', schema: seedAdminResponse }, 400: 'validation failed', 409: 'An admin user already exists', 429: 'rate limited' } }, limits.seedAdmin, auth.seedAdmin);
    // After the routes: failed form posts get their page back instead of the generic error page.
    api.router.use(auth.formErrorPages);
    return api.router;
}
//# sourceMappingURL=auth.routes.js.map