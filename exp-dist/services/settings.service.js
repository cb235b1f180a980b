"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.DEFAULT_JWT_REFRESH_GRACE_SECONDS = exports.DEFAULT_JWT_EXPIRES_IN = void 0;
exports.createSettingsService = createSettingsService;
const duration_1 = require("../config/duration");
exports.DEFAULT_JWT_EXPIRES_IN = '30d';
exports.DEFAULT_JWT_REFRESH_GRACE_SECONDS = 604_800;
const KEYS = {
    jwtExpiresIn: 'security.jwtExpiresIn',
    jwtRefreshGraceSeconds: 'security.jwtRefreshGraceSeconds',
    allowRegistration: 'security.allowRegistration',
};
/**
 * Admin-editable settings. Security values resolve environment → admin setting → default; an
 * environment value is a ceiling the admin cannot lift, so a stored admin value under it stays inactive.
 */
function createSettingsService({ config, models }) {
    async function read(keys) {
        const rows = await models.Setting.findAll({ where: { key: keys } });
        return new Map(rows.map((row) => [row.key, row.value]));
    }
    async function getSecuritySettings() {
        const stored = await read(Object.values(KEYS));
        const storedExpires = stored.get(KEYS.jwtExpiresIn);
        const storedGrace = stored.get(KEYS.jwtRefreshGraceSeconds);
        const storedAllow = stored.get(KEYS.allowRegistration);
        const jwtExpiresIn = config.jwtExpiresIn
            ? { ...config.jwtExpiresIn, source: 'env' }
            : typeof storedExpires === 'string' && (0, duration_1.parseDurationSeconds)(storedExpires) !== null
                ? { value: storedExpires, seconds: (0, duration_1.parseDurationSeconds)(storedExpires), source: 'admin' }
                : { value: exports.DEFAULT_JWT_EXPIRES_IN, seconds: (0, duration_1.parseDurationSeconds)(exports.DEFAULT_JWT_EXPIRES_IN), source: 'default' };
        const grace = config.jwtRefreshGraceSeconds !== undefined
            ? { value: config.jwtRefreshGraceSeconds, source: 'env' }
            : typeof storedGrace === 'number'
                ? { value: storedGrace, source: 'admin' }
                : { value: exports.DEFAULT_JWT_REFRESH_GRACE_SECONDS, source: 'default' };
        return {
            jwtExpiresIn,
            jwtRefreshGraceSeconds: { ...grace, seconds: grace.value },
            allowRegistration: typeof storedAllow === 'boolean' ? { value: storedAllow, source: 'admin' } : { value: true, source: 'default' },
        };
    }
    /** Stores the given admin values (validated by the caller's schema) and answers the resolved settings. */
    async function updateSecuritySettings(update) {
        const entries = Object.entries(update).filter(([, value]) => value !== undefined);
        await models.Setting.sequelize.transaction(async (transaction) => {
            for (const [name, value] of entries) {
                await models.Setting.upsert({ key: KEYS[name], value }, { transaction });
            }
        });
        return getSecuritySettings();
    }
    return { getSecuritySettings, updateSecuritySettings };
}
//# sourceMappingURL=settings.service.js.map