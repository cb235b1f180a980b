"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.toAuthUser = toAuthUser;
exports.createPasswordLogin = createPasswordLogin;
const user_service_1 = require("../services/user.service");
/** The signed-in user's shape (also what the verification cache holds), with its stored profile data. */
function toAuthUser(user) {
    const profile = user.profile;
    return {
        id: user.id,
        email: user.email,
        username: user.username,
        firstName: user.firstName,
        lastName: user.lastName,
        role: user.role,
        tokenEpoch: user.tokenEpoch,
        profileData: profile?.data ?? {},
    };
}
/**
 * Checks an email and password (the passport-local verify step). Unknown email, wrong password and
 * deactivated account all cost one PBKDF2 run, so timing does not tell them apart. A legacy or weaker
 * hash is replaced on success by a conditional UPDATE (`WHERE id = ? AND password_hash = <old>`), so of
 * many parallel sign-ins exactly one rewrites it.
 */
function createPasswordLogin(deps) {
    const { models, passwords, logger } = deps;
    async function upgradeHash(user, password) {
        try {
            const fresh = await passwords.hash(password);
            const [changed] = await models.User.update({ passwordHash: fresh }, { where: { id: user.id, passwordHash: user.passwordHash } });
            return changed === 1;
        }
        catch (err) {
            // The sign-in itself succeeded; the upgrade is tried again at the next one.
            logger.warn({ err: err.message, userId: user.id }, 'could not upgrade a password hash');
            return false;
        }
    }
    async function check(rawEmail, password) {
        const email = (0, user_service_1.normalizeEmail)(rawEmail);
        const user = await models.User.findOne({ where: { email }, include: [{ model: models.UserProfile, as: 'profile' }] });
        if (!user) {
            await passwords.verifyAgainstDummy(password);
            return { ok: false, reason: 'unknown_email', email, userId: null };
        }
        const result = await passwords.verify(password, user.passwordHash);
        if (!result.ok)
            return { ok: false, reason: 'wrong_password', email, userId: user.id };
        if (!user.active)
            return { ok: false, reason: 'inactive', email, userId: user.id };
        const passwordRehashed = result.needsRehash ? await upgradeHash(user, password) : false;
        return { ok: true, user: toAuthUser(user), passwordRehashed };
    }
    return { check };
}
//# sourceMappingURL=password-login.js.map