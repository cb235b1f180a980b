"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.RESET_MESSAGES = exports.RESET_TOKEN_TTL_SECONDS = void 0;
exports.hashResetToken = hashResetToken;
exports.createPasswordResetService = createPasswordResetService;
const node_crypto_1 = __importDefault(require("node:crypto"));
const sequelize_1 = require("sequelize");
const app_error_1 = require("../http/app-error");
exports.RESET_TOKEN_TTL_SECONDS = 60 * 60;
exports.RESET_MESSAGES = {
    requested: 'If an account with this email exists, a password reset link has been sent.',
    done: 'Password has been reset',
    invalid: 'Invalid or expired reset token',
};
const TOKEN_BYTES = 32;
function hashResetToken(token) {
    return node_crypto_1.default.createHash('sha256').update(token, 'utf8').digest('hex');
}
/**
 * Forgotten passwords (CONTRACT 4). The request answers the same, in about the same time, whether or not
 * the account exists: the request path does one lookup and one activity row either way, and the token
 * and mail are produced after the answer (never awaited on the request path).
 */
function createPasswordResetService(deps) {
    const { config, sequelize, models, activity, mailer } = deps;
    const log = deps.logger.child({ component: 'password-reset' });
    /** Deliveries still running, so shutdown and tests can wait for them. */
    const pending = new Set();
    function resetLink(token) {
        // Always BASE_URL: a forged Host / X-Forwarded-Host never reaches an emailed link.
        return `${config.baseUrl}/auth/reset-password?token=${encodeURIComponent(token)}`;
    }
    /** Creates a fresh token (voiding the user's older ones) and mails the link. Never throws. */
    async function deliver(user) {
        try {
            const token = node_crypto_1.default.randomBytes(TOKEN_BYTES).toString('base64url');
            await sequelize.transaction(async (transaction) => {
                await models.PasswordResetToken.destroy({ where: { userId: user.id }, transaction });
                await models.PasswordResetToken.create({
                    id: node_crypto_1.default.randomUUID(),
                    userId: user.id,
                    tokenHash: hashResetToken(token),
                    expiresAt: new Date(Date.now() + exports.RESET_TOKEN_TTL_SECONDS * 1000),
                }, { transaction });
            });
            const link = resetLink(token);
            await mailer.send({
                to: user.email,
                subject: 'Reset your password',
                text: `Someone asked to reset the password of your account (${user.email}).\n\n` +
                    `To choose a new password, open this link within one hour:\n${link}\n\n` +
                    `If you did not ask for this, ignore this message: your password stays unchanged.\n`,
                html: `<p>Someone asked to reset the password of your account (${escapeHtml(user.email)}).</p>` +
                    `<p><a href="${escapeHtml(link)}">Choose a new password</a> (the link is valid for one hour).</p>` +
                    `<p>If you did not ask for this, ignore this message: your password stays unchanged.</p>`,
            });
        }
        catch (err) {
            log.error({ err: err.message, userId: user.id }, 'could not prepare a password reset');
        }
    }
    function inBackground(work) {
        pending.add(work);
        void work.finally(() => pending.delete(work));
    }
    /** Starts a reset for the email if it names an active account; the caller always answers the same. */
    async function requestReset(rawEmail, context) {
        const email = rawEmail.trim().toLowerCase();
        const user = await models.User.findOne({ where: { email } });
        const eligible = user !== null && user.active;
        await activity.record({
            action: 'auth.password_reset_requested',
            userId: user?.id ?? null,
            email,
            details: eligible ? {} : { outcome: user ? 'inactive_account' : 'unknown_account' },
        }, context);
        if (!eligible)
            return;
        if (!mailer.isConfigured()) {
            log.warn({ userId: user.id }, 'password reset requested, but no mail service is configured: no link sent');
            return;
        }
        inBackground(deliver(user));
    }
    /** The user a token currently belongs to, or null: unknown, used, expired, or the account is inactive. */
    async function findUsable(token) {
        if (!token)
            return null;
        const row = await models.PasswordResetToken.findOne({
            where: { tokenHash: hashResetToken(token), usedAt: null, expiresAt: { [sequelize_1.Op.gt]: new Date() } },
        });
        if (!row)
            return null;
        const user = await models.User.findByPk(row.userId);
        if (!user || !user.active)
            return null;
        return { tokenId: row.id, user };
    }
    /**
     * Sets the new password. One transaction claims the token (a conditional update: of concurrent uses
     * exactly one changes the row), stores the hash and ends every existing token of the user.
     */
    async function resetPassword(token, password, context) {
        const usable = await findUsable(token);
        if (!usable)
            throw app_error_1.AppError.badRequest(exports.RESET_MESSAGES.invalid);
        // Hashed before the transaction: PBKDF2 takes tens of milliseconds, too long to hold a write lock.
        const passwordHash = await deps.hashPassword(password);
        const { user, tokenId } = usable;
        await sequelize.transaction(async (transaction) => {
            const now = new Date();
            const [claimed] = await models.PasswordResetToken.update({ usedAt: now }, { where: { id: tokenId, usedAt: null, expiresAt: { [sequelize_1.Op.gt]: now } }, transaction });
            if (claimed !== 1)
                throw app_error_1.AppError.badRequest(exports.RESET_MESSAGES.invalid);
            await models.User.update({ passwordHash }, { where: { id: user.id }, transaction });
            await models.PasswordResetToken.destroy({ where: { userId: user.id, id: { [sequelize_1.Op.ne]: tokenId } }, transaction });
            await deps.revokeAllForUser(user.id, { transaction });
        });
        await activity.record({ action: 'auth.password_reset', userId: user.id, email: user.email }, context);
    }
    return {
        requestReset,
        resetPassword,
        /** True when the token can still be used (the form page says so before the user types). */
        isUsable: async (token) => (await findUsable(token)) !== null,
        /** Resolves when every background delivery started so far has finished. */
        idle: async () => {
            await Promise.allSettled([...pending]);
        },
    };
}
function escapeHtml(value) {
    return value.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]);
}
//# sourceMappingURL=password-reset.service.js.map