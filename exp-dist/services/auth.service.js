"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.AUTH_MESSAGES = void 0;
exports.createAuthService = createAuthService;
const user_service_1 = require("./user.service");
const app_error_1 = require("../http/app-error");
exports.AUTH_MESSAGES = {
    invalidCredentials: 'Invalid email or password',
    invalidToken: 'Invalid or expired token',
    inactive: 'User is not active',
    adminCreated: 'Admin user created',
};
/**
 * Session flows behind /auth: registration, password sign-in (after passport-local), refresh, sign-out
 * and the bootstrap admin. Knows nothing of HTTP: the controller passes parsed input and a request
 * context, and turns the results into cookies and bodies.
 */
function createAuthService(deps) {
    const { config, users, tokens, settings, activity, profiles } = deps;
    /** POST /auth/register: 403 while registration is off (unless this is the very first user). */
    async function register(input, context) {
        const custom = profiles.validateRegistration(input.custom);
        if (!custom.ok)
            throw app_error_1.AppError.validation(custom.errors);
        const { allowRegistration } = await settings.getSecuritySettings();
        const user = await users.createUser({
            email: input.email,
            password: input.password,
            username: input.username,
            firstName: input.firstName,
            lastName: input.lastName,
            profile: custom.value,
        }, { onlyIf: allowRegistration.value ? undefined : 'first-user' });
        const issued = await tokens.issue(user);
        await activity.record({ action: 'auth.register', userId: user.id, email: user.email, details: { role: user.role } }, context);
        return { user: profiles.presentUser({ ...(0, user_service_1.toPublicUser)(user), profileData: custom.value }), issued };
    }
    /** After passport-local accepted the credentials: a token and an activity row. */
    async function completePasswordLogin(result, context) {
        const issued = await tokens.issue(result.user);
        const details = { method: 'password' };
        if (result.passwordRehashed)
            details.passwordRehashed = true;
        await activity.record({ action: 'auth.login', userId: result.user.id, email: result.user.email, details }, context);
        return { user: profiles.presentUser(result.user), issued };
    }
    /** Records a refused sign-in (the attempted email, never the password) and answers the one 401. */
    async function failPasswordLogin(result, context) {
        await activity.record({ action: 'auth.login_failed', userId: result.userId, email: result.email, details: { method: 'password', reason: result.reason } }, context);
        throw app_error_1.AppError.unauthorized(exports.AUTH_MESSAGES.invalidCredentials);
    }
    /** POST /auth/refresh: a valid token, or one expired within the grace window, of an active user. */
    async function refresh(token, context) {
        const check = token ? await tokens.checkForRefresh(token) : { ok: false, reason: 'invalid' };
        if (!check.ok)
            throw app_error_1.AppError.unauthorized(check.reason === 'inactive' ? exports.AUTH_MESSAGES.inactive : exports.AUTH_MESSAGES.invalidToken);
        const issued = await tokens.issue(check.user);
        await activity.record({ action: 'auth.refresh', userId: check.user.id, email: check.user.email }, context);
        return issued;
    }
    /** POST /auth/logout: the token used stops working at once (when there was a valid one). */
    async function logout(signedIn, context) {
        if (!signedIn)
            return;
        await tokens.revokeToken(signedIn.token, signedIn.claims);
        await activity.record({ action: 'auth.logout', userId: signedIn.user.id, email: signedIn.user.email, details: { scope: 'token' } }, context);
    }
    /** POST /auth/logout-all: every token of the user ends. */
    async function logoutAll(user, context) {
        await tokens.revokeAllForUser(user.id);
        await activity.record({ action: 'auth.logout', userId: user.id, email: user.email, details: { scope: 'all' } }, context);
    }
    /**
     * POST /auth/seed-admin: creates an admin only while none exists (decided under the user-creation lock),
     * from the body or ADMIN_EMAIL / ADMIN_PASSWORD. Never touches an existing account.
     */
    async function seedAdmin(input, context) {
        if (await users.adminExists())
            throw app_error_1.AppError.conflict(user_service_1.USER_MESSAGES.adminExists);
        const email = input.email ?? config.adminEmail;
        const password = input.password ?? config.adminPassword;
        const errors = {};
        if (!email)
            errors.email = 'Required (or set ADMIN_EMAIL)';
        if (!password)
            errors.password = 'Required (or set ADMIN_PASSWORD)';
        else if (password.length < 8 || password.length > 128)
            errors.password = 'Must be 8 to 128 characters';
        if (Object.keys(errors).length > 0)
            throw app_error_1.AppError.validation(errors);
        const user = await users.createUser({ email: email, password, role: 'admin' }, { onlyIf: 'no-admin' });
        await activity.record({ action: 'user.created', userId: user.id, email: user.email, details: { role: user.role, via: 'seed-admin' } }, context);
        return { message: exports.AUTH_MESSAGES.adminCreated, user: (0, user_service_1.toPublicUser)(user) };
    }
    return { register, completePasswordLogin, failPasswordLogin, refresh, logout, logoutAll, seedAdmin };
}
//# sourceMappingURL=auth.service.js.map