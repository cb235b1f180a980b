"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.createAuthController = createAuthController;
const app_error_1 = require("../http/app-error");
const request_context_1 = require("../http/request-context");
const safe_redirect_1 = require("../http/safe-redirect");
const credentials_1 = require("../auth/credentials");
const passport_1 = require("../auth/passport");
const local_strategy_1 = require("../auth/local.strategy");
const profile_validator_1 = require("../profiles/profile-validator");
const AFTER_SIGN_IN = '/admin';
const TITLES = { login: 'Sign in', register: 'Create an account' };
const SIGNED_OUT = 'You have been signed out.';
const MAX_NOTICE_LENGTH = 200;
const LOGIN_FIELDS = [
    { name: 'email', label: 'Email', type: 'email', autocomplete: 'username', required: true, maxlength: 255 },
    { name: 'password', label: 'Password', type: 'password', autocomplete: 'current-password', required: true, maxlength: 1024 },
];
/** Standard registration controls; the custom registrationFields are rendered after them. */
const REGISTER_FIELDS = [
    { name: 'email', label: 'Email', type: 'email', autocomplete: 'email', required: true, maxlength: 255 },
    { name: 'password', label: 'Password', type: 'password', autocomplete: 'new-password', required: true, minlength: 8, maxlength: 128 },
    { name: 'username', label: 'Username', type: 'text', autocomplete: 'username', minlength: 3, maxlength: 64 },
    { name: 'firstName', label: 'First name', type: 'text', autocomplete: 'given-name', maxlength: 100 },
    { name: 'lastName', label: 'Last name', type: 'text', autocomplete: 'family-name', maxlength: 100 },
];
/** A urlencoded post from one of our HTML forms (answered with redirects and pages, not JSON). */
function isFormPost(req) {
    return Boolean(req.is('application/x-www-form-urlencoded'));
}
function notice(value) {
    return typeof value === 'string' && value !== '' ? value.slice(0, MAX_NOTICE_LENGTH) : null;
}
/** Form values to show again: strings only, never the password. */
function echoValues(body) {
    if (!(0, profile_validator_1.isPlainObject)(body))
        return {};
    const values = {};
    for (const [key, value] of Object.entries(body)) {
        if (key !== 'password')
            values[key] = value;
    }
    return values;
}
/** Handlers of the /auth session routes: parse (already done by the route's schema) → service → answer. */
function createAuthController(container) {
    const { auth, cookies, passport, profiles, settings, users } = container;
    function renderLogin(res, status, locals) {
        res.status(status).render('auth/login', {
            title: TITLES.login,
            fields: LOGIN_FIELDS,
            values: locals.values ?? {},
            errors: locals.errors ?? {},
            error: locals.error ?? null,
            message: locals.message ?? null,
            redirect: locals.redirect ?? null,
        });
    }
    async function renderRegister(res, status, locals) {
        const { allowRegistration } = await settings.getSecuritySettings();
        // The first user may always register; the form says "disabled" only when the post would be refused.
        const disabled = !allowRegistration.value && (await users.anyUserExists());
        res.status(status).render('auth/register', {
            title: TITLES.register,
            fields: REGISTER_FIELDS,
            customFields: profiles.registrationFields(),
            values: locals.values ?? {},
            errors: locals.errors ?? {},
            error: locals.error ?? null,
            disabled,
        });
    }
    /** passport-local with a callback: its outcome as a promise (no server session). */
    function authenticateLocal(req, res) {
        return new Promise((resolve, reject) => {
            passport.authenticate(passport_1.STRATEGY.local, { session: false }, (err, _user, info) => {
                if (err)
                    reject(err);
                else
                    resolve(info);
            })(req, res, reject);
        });
    }
    const loginPage = (req, res) => {
        const query = req.query;
        renderLogin(res, 200, { error: notice(query.error), message: notice(query.message), redirect: (0, safe_redirect_1.safeRedirect)(query.redirect) });
    };
    const login = async (req, res) => {
        const body = req.body;
        const context = (0, request_context_1.requestContext)(req);
        const info = await authenticateLocal(req, res);
        if (!info?.result)
            throw app_error_1.AppError.unauthorized(local_strategy_1.INVALID_CREDENTIALS);
        if (!info.result.ok)
            await auth.failPasswordLogin(info.result, context);
        const signedIn = await auth.completePasswordLogin(info.result, context);
        cookies.set(res, signedIn.issued);
        if (isFormPost(req)) {
            res.redirect(302, (0, safe_redirect_1.safeRedirect)(body.redirect) ?? AFTER_SIGN_IN);
            return;
        }
        res.json({ user: signedIn.user, token: signedIn.issued.token });
    };
    const registerPage = async (_req, res) => {
        await renderRegister(res, 200, {});
    };
    const register = async (req, res) => {
        const body = req.body;
        const names = profiles.definition.registrationFields;
        // Only the registrationFields go on to the profile validator; any other extra key is ignored (CONTRACT 4).
        const custom = isFormPost(req)
            ? (0, profile_validator_1.coerceFormValues)(profiles.definition, names, body)
            : Object.fromEntries(names.filter((name) => Object.hasOwn(body, name)).map((name) => [name, body[name]]));
        const signedIn = await auth.register({ email: body.email, password: body.password, username: body.username, firstName: body.firstName, lastName: body.lastName, custom }, (0, request_context_1.requestContext)(req));
        cookies.set(res, signedIn.issued);
        if (isFormPost(req)) {
            res.redirect(302, AFTER_SIGN_IN);
            return;
        }
        res.status(201).json({ user: signedIn.user, token: signedIn.issued.token });
    };
    const me = (req, res) => {
        res.json({ user: profiles.presentUser(req.user) });
    };
    const refresh = async (req, res) => {
        const issued = await auth.refresh((0, credentials_1.extractToken)(req), (0, request_context_1.requestContext)(req));
        cookies.set(res, issued);
        res.json({ token: issued.token, expiresIn: issued.expiresIn });
    };
    const logout = async (req, res) => {
        const signedIn = req.user && req.authToken && req.tokenClaims ? { user: req.user, token: req.authToken, claims: req.tokenClaims } : null;
        await auth.logout(signedIn, (0, request_context_1.requestContext)(req));
        cookies.clear(res);
        if (isFormPost(req)) {
            res.redirect(302, `/auth/login?message=${encodeURIComponent(SIGNED_OUT)}`);
            return;
        }
        res.json({ success: true });
    };
    const logoutAll = async (req, res) => {
        await auth.logoutAll(req.user, (0, request_context_1.requestContext)(req));
        cookies.clear(res);
        if (isFormPost(req)) {
            res.redirect(302, `/auth/login?message=${encodeURIComponent(SIGNED_OUT)}`);
            return;
        }
        res.json({ success: true });
    };
    const seedAdmin = async (req, res) => {
        const result = await auth.seedAdmin(req.body, (0, request_context_1.requestContext)(req));
        res.status(201).json(result);
    };
    /**
     * A failed post of the sign-in or registration FORM gets its page back with the message and field
     * errors (status kept: 400, 401, 403, 409, 429); JSON clients fall through to the app's error handler.
     */
    const formErrorPages = async (err, req, res, next) => {
        if (!(err instanceof app_error_1.AppError) || err.status >= 500 || req.method !== 'POST' || !isFormPost(req))
            return next(err);
        const path = req.path.toLowerCase().replace(/\/+$/, '');
        if (path !== '/login' && path !== '/register')
            return next(err);
        for (const [name, value] of Object.entries(err.options.headers ?? {}))
            res.setHeader(name, value);
        const values = echoValues(req.body);
        const errors = err.options.errors ?? {};
        if (path === '/login')
            renderLogin(res, err.status, { values, errors, error: err.message, redirect: (0, safe_redirect_1.safeRedirect)(values.redirect) });
        else
            await renderRegister(res, err.status, { values, errors, error: err.message });
    };
    return { loginPage, login, registerPage, register, me, refresh, logout, logoutAll, seedAdmin, formErrorPages };
}
//# sourceMappingURL=auth.controller.js.map