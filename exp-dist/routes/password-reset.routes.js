"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.passwordResetRoutes = passwordResetRoutes;
const zod_1 = require("zod");
const api_router_1 = require("../http/api-router");
const app_error_1 = require("../http/app-error");
const negotiation_1 = require("../http/negotiation");
const request_context_1 = require("../http/request-context");
const password_reset_service_1 = require("../services/password-reset.service");
const email = zod_1.z.string().trim().toLowerCase().max(255).pipe(zod_1.z.email({ message: 'must be a valid email address' }));
const requestBody = zod_1.z.strictObject({ email });
const resetBody = zod_1.z.strictObject({
    token: zod_1.z.string().min(1, { message: 'is required' }).max(512),
    password: zod_1.z
        .string()
        .min(8, { message: 'must be at least 8 characters' })
        .max(128, { message: 'must be at most 128 characters' }),
});
const messageView = zod_1.z.object({ message: zod_1.z.string() });
const FORGOT_VIEW = 'auth/forgot-password';
const RESET_VIEW = 'auth/reset-password';
const TITLES = { forgot: 'Forgot your password?', reset: 'Choose a new password' };
/** The pages carry a one-time token (in the URL and the form): never cached. */
function noStore(res) {
    return res.set('Cache-Control', 'no-store');
}
function tokenOf(req) {
    const token = req.query.token ?? req.body?.token;
    return typeof token === 'string' ? token.slice(0, 512) : '';
}
/**
 * A browser's form post that fails validation (or the token check) gets its form back with the errors,
 * not the generic error page. JSON clients fall through to the app's error handler.
 */
const formErrors = (err, req, res, next) => {
    if (!(err instanceof app_error_1.AppError) || err.status !== 400 || !(0, negotiation_1.isBrowserRequest)(req))
        return next(err);
    const errors = err.options.errors ?? {};
    if (req.path === '/reset-password') {
        // A dead token gets no form again; a validation failure gets the form back to correct.
        const showForm = err.message !== password_reset_service_1.RESET_MESSAGES.invalid;
        noStore(res).status(400).render(RESET_VIEW, { title: TITLES.reset, token: tokenOf(req), showForm, error: err.message, errors });
        return;
    }
    if (req.path === '/request-password-reset') {
        const body = req.body;
        const value = typeof body?.email === 'string' ? body.email.slice(0, 255) : '';
        res.status(400).render(FORGOT_VIEW, { title: TITLES.forgot, email: value, message: null, error: err.message, errors });
        return;
    }
    next(err);
};
/** CONTRACT 4 password reset: request a link, show the form, set the new password. Mounted at /auth. */
function passwordResetRoutes(container) {
    const { passwordReset, limits } = container;
    const api = (0, api_router_1.createApiRouter)(container.docs, '/auth');
    const tags = ['Password reset'];
    api.router.get('/forgot-password', (_req, res) => {
        res.render(FORGOT_VIEW, { title: TITLES.forgot, email: '', message: null, error: null, errors: {} });
    });
    api.post('/request-password-reset', {
        summary: 'Email a password reset link',
        description: 'Always answers the same, whether or not the account exists. Rate limited: 3 per 15 minutes per client IP.',
        tags,
        body: requestBody,
        form: true,
        responses: { 200: { description: 'the same answer for every email', schema: messageView }, 400: 'validation failed', 429: 'rate limited' },
    }, limits.passwordReset, async (req, res) => {
        const { email: address } = req.body;
        await passwordReset.requestReset(address, (0, request_context_1.requestContext)(req));
        if ((0, negotiation_1.isBrowserRequest)(req)) {
            res.render(FORGOT_VIEW, { title: TITLES.forgot, email: '', message: password_reset_service_1.RESET_MESSAGES.requested, error: null, errors: {} });
            return;
        }
        res.json({ message: password_reset_service_1.RESET_MESSAGES.requested });
    });
    api.router.get('/reset-password', async (req, res) => {
        const token = tokenOf(req);
        const usable = token !== '' && (await passwordReset.isUsable(token));
        // 200 either way: the page itself explains an unusable link and offers a new one.
        noStore(res).render(RESET_VIEW, { title: TITLES.reset, token, showForm: usable, error: usable ? null : password_reset_service_1.RESET_MESSAGES.invalid, errors: {} });
    });
    api.post('/reset-password', {
        summary: 'Set a new password with a reset token',
        description: 'The token is single-use and valid for one hour. Every existing session token of the user stops working.',
        tags,
        body: resetBody,
        form: true,
        responses: { 200: { description: 'password changed', schema: messageView }, 400: 'invalid or expired token, or validation failed' },
    }, async (req, res) => {
        const { token, password } = req.body;
        await passwordReset.resetPassword(token, password, (0, request_context_1.requestContext)(req));
        noStore(res);
        if ((0, negotiation_1.isBrowserRequest)(req)) {
            res.redirect(302, `/auth/login?message=${encodeURIComponent('Your password has been reset. Please sign in.')}`);
            return;
        }
        res.json({ message: password_reset_service_1.RESET_MESSAGES.done });
    });
    api.router.use(formErrors);
    return api.router;
}
//# sourceMappingURL=password-reset.routes.js.map