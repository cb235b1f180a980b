"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.VERIFICATION_CACHE_SECONDS = void 0;
exports.createTokenService = createTokenService;
const node_crypto_1 = __importDefault(require("node:crypto"));
const jsonwebtoken_1 = __importDefault(require("jsonwebtoken"));
const ALGORITHM = 'HS256';
exports.VERIFICATION_CACHE_SECONDS = 300;
const keys = {
    cache: (token) => `vc:${node_crypto_1.default.createHash('sha256').update(token).digest('hex')}`,
    userVersion: (userId) => `uver:${userId}`,
    revoked: (jti) => `revoked:${jti}`,
};
/** The payload as access claims, or null when a claim is missing or of the wrong kind. */
function asAccessClaims(payload) {
    const claims = payload;
    const wellFormed = typeof claims === 'object' &&
        claims !== null &&
        claims.typ === 'access' &&
        typeof claims.sub === 'string' &&
        claims.sub === claims.userId &&
        typeof claims.jti === 'string' &&
        typeof claims.ep === 'number' &&
        typeof claims.exp === 'number';
    return wellFormed ? claims : null;
}
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
 * Issues and verifies access tokens (HS256, pinned). Verification results are cached for five minutes
 * in the key-value store under a hash of the whole token. Each user has a version key in the store that
 * any change (revocation, role, profile) replaces; a cached result under an old version is not trusted,
 * so revocation takes effect at once. The version key lives as long as the cache entries it guards.
 */
function createTokenService(deps) {
    const { models, store, settings, logger } = deps;
    // A KeyObject: jsonwebtoken re-parses a string secret on every call, about five times slower.
    const key = node_crypto_1.default.createSecretKey(Buffer.from(deps.config.jwtSecret, 'utf8'));
    async function loadUser(userId) {
        return models.User.findByPk(userId, { include: [{ model: models.UserProfile, as: 'profile' }] });
    }
    function decode(token, ignoreExpiration) {
        try {
            return asAccessClaims(jsonwebtoken_1.default.verify(token, key, { algorithms: [ALGORITHM], ignoreExpiration }));
        }
        catch {
            return null;
        }
    }
    /** Signs a token for the user with the resolved lifetime. */
    async function issue(user) {
        const { jwtExpiresIn } = await settings.getSecuritySettings();
        const now = Math.floor(Date.now() / 1000);
        const claims = {
            sub: user.id,
            userId: user.id,
            email: user.email,
            role: user.role,
            jti: node_crypto_1.default.randomUUID(),
            ep: user.tokenEpoch,
            typ: 'access',
            iat: now,
            exp: now + jwtExpiresIn.seconds,
        };
        const token = jsonwebtoken_1.default.sign(claims, key, { algorithm: ALGORITHM });
        return { token, expiresIn: jwtExpiresIn.seconds, claims };
    }
    /**
     * Full verification of an unexpired token: signature, claims, not revoked, user existing and active,
     * epoch current. Uses the cache when its entry is current; a store failure means the full check.
     */
    async function verify(token, verifiedPayload) {
        // passport-jwt has already checked signature and expiry with the same key when it passes the payload.
        const claims = verifiedPayload === undefined ? decode(token, false) : asAccessClaims(verifiedPayload);
        if (!claims)
            return null;
        const cacheKey = keys.cache(token);
        let cached = null;
        let version = null;
        let revoked = null;
        let storeWorks = true;
        try {
            [cached, version, revoked] = await store.getMany([cacheKey, keys.userVersion(claims.sub), keys.revoked(claims.jti)]);
        }
        catch (err) {
            storeWorks = false;
            logger.warn({ err: err.message }, 'key-value store unavailable: verifying token without cache');
        }
        if (revoked)
            return null;
        if (cached) {
            const entry = JSON.parse(cached);
            if (entry.version === version && entry.user.id === claims.sub)
                return { user: entry.user, claims };
        }
        const user = await loadUser(claims.sub);
        if (!user || !user.active || user.tokenEpoch !== claims.ep)
            return null;
        const authUser = toAuthUser(user);
        if (storeWorks) {
            const ttl = Math.min(exports.VERIFICATION_CACHE_SECONDS, claims.exp - Math.floor(Date.now() / 1000));
            if (ttl > 0) {
                const entry = { user: authUser, version };
                await store.set(cacheKey, JSON.stringify(entry), ttl).catch(() => undefined);
            }
        }
        return { user: authUser, claims };
    }
    /** Refresh rule of SPEC 4.1: signature always checked; expiry forgiven within the grace window; user re-read. */
    async function checkForRefresh(token) {
        const claims = decode(token, true);
        if (!claims)
            return { ok: false, reason: 'invalid' };
        const { jwtRefreshGraceSeconds } = await settings.getSecuritySettings();
        const now = Math.floor(Date.now() / 1000);
        if (now >= claims.exp + jwtRefreshGraceSeconds.seconds)
            return { ok: false, reason: 'invalid' };
        if (await isRevoked(claims.jti))
            return { ok: false, reason: 'invalid' };
        const user = await loadUser(claims.sub);
        if (!user || user.tokenEpoch !== claims.ep)
            return { ok: false, reason: 'invalid' };
        if (!user.active)
            return { ok: false, reason: 'inactive' };
        return { ok: true, user, claims };
    }
    async function isRevoked(jti) {
        try {
            return (await store.get(keys.revoked(jti))) !== null;
        }
        catch {
            return false;
        }
    }
    /** Ends one token at once: it is denied until it could no longer be refreshed. */
    async function revokeToken(token, claims) {
        const { jwtRefreshGraceSeconds } = await settings.getSecuritySettings();
        const ttl = Math.max(1, claims.exp + jwtRefreshGraceSeconds.seconds - Math.floor(Date.now() / 1000));
        await store.set(keys.revoked(claims.jti), '1', ttl);
        await store.delete(keys.cache(token));
    }
    /**
     * Ends every token of the user: the epoch in the database moves on (tokens carry the old one), and
     * the version key voids cached results. Call with the transaction that changes the user, if any.
     */
    async function revokeAllForUser(userId, options = {}) {
        const { transaction } = options;
        await models.User.increment('tokenEpoch', { by: 1, where: { id: userId }, transaction });
        // Voiding the cache before the epoch is committed would let a concurrent request re-cache the old state.
        if (transaction)
            transaction.afterCommit(() => userChanged(userId));
        else
            await userChanged(userId);
    }
    /** Voids cached verification results of the user (their data changed), without ending their tokens. */
    async function userChanged(userId) {
        try {
            await store.set(keys.userVersion(userId), node_crypto_1.default.randomUUID(), exports.VERIFICATION_CACHE_SECONDS + 5);
        }
        catch (err) {
            logger.warn({ err: err.message }, 'key-value store unavailable: cached verifications expire on their own');
        }
    }
    return { signingKey: key, algorithm: ALGORITHM, issue, verify, checkForRefresh, revokeToken, revokeAllForUser, userChanged };
}
//# sourceMappingURL=token.service.js.map