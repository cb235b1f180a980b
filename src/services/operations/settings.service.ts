import type { Logger } from 'pino';
import type { Config } from '../../config/config';
import { parseDurationSeconds } from '../../config/duration';
import { ROLES, type Models, type Role } from '../../models';
import type { AdminAudit } from '../../http/request-context';
import type { KeyValueStore } from '../../store';
import type { ActivityService } from './activity.service';
import { createSettingsCache } from './settings-cache';
import { deepFreeze } from '../../util/deep-freeze';

export type SettingSource = 'env' | 'admin' | 'default';

export const DEFAULT_JWT_EXPIRES_IN = '30d';
export const DEFAULT_JWT_REFRESH_GRACE_SECONDS = 604_800;
/** CONTRACT 8: a session ends 90 days after its sign-in unless SESSION_MAX_AGE or an admin says otherwise. */
export const DEFAULT_SESSION_MAX_AGE_SECONDS = 90 * 86_400;

export interface SecuritySettings {
  jwtExpiresIn: { value: string; seconds: number; source: SettingSource };
  jwtRefreshGraceSeconds: { value: number; seconds: number; source: SettingSource };
  allowRegistration: { value: boolean; source: SettingSource };
  sessionMaxAgeSeconds: { value: number; seconds: number; source: SettingSource };
  /** CONTRACT 9: roles whose users must enrol a second factor before anything else. */
  requireTwoFactorRoles: { value: Role[]; source: SettingSource };
  /** CONTRACT 12: a password sign-in of an account whose address is unproven is refused (403). */
  requireVerifiedEmail: { value: boolean; source: SettingSource };
}

export interface SecuritySettingsUpdate {
  jwtExpiresIn?: string;
  jwtRefreshGraceSeconds?: number;
  allowRegistration?: boolean;
  sessionMaxAgeSeconds?: number;
  requireTwoFactorRoles?: Role[];
  requireVerifiedEmail?: boolean;
}

/** The environment variable that, when set, decides a setting (the admin page names it beside the value). */
export const SECURITY_ENV_VARIABLES = {
  jwtExpiresIn: 'JWT_EXPIRES_IN',
  jwtRefreshGraceSeconds: 'JWT_REFRESH_GRACE_SECONDS',
  sessionMaxAgeSeconds: 'SESSION_MAX_AGE',
} as const;

const KEYS = {
  jwtExpiresIn: 'security.jwtExpiresIn',
  jwtRefreshGraceSeconds: 'security.jwtRefreshGraceSeconds',
  allowRegistration: 'security.allowRegistration',
  sessionMaxAgeSeconds: 'security.sessionMaxAgeSeconds',
  requireTwoFactorRoles: 'security.requireTwoFactorRoles',
  requireVerifiedEmail: 'security.requireVerifiedEmail',
} as const;

/**
 * Admin-editable settings. Security values resolve environment → admin setting → default; an
 * environment value overrides: a stored admin value has no effect while the variable is set.
 */
export function createSettingsService(deps: { config: Config; models: Models; activity: ActivityService; store: KeyValueStore; logger: Logger }) {
  const { config, models, activity } = deps;
  const stored = createSettingsCache({ model: models.Setting, keys: Object.values(KEYS), store: deps.store, logger: deps.logger });

  /**
   * Resolved once per copy of the rows: the cache answers the same Map while its copy is current, and several steps
   * of every sign-in ask for the settings. Frozen, as every caller shares it.
   */
  const resolvedByCopy = new WeakMap<Map<string, unknown>, SecuritySettings>();

  async function getSecuritySettings(): Promise<SecuritySettings> {
    const values = await stored.read();
    let settings = resolvedByCopy.get(values);
    if (!settings) {
      settings = deepFreeze(resolve(values));
      resolvedByCopy.set(values, settings);
    }
    return settings;
  }

  function resolve(values: Map<string, unknown>): SecuritySettings {
    const storedExpires = values.get(KEYS.jwtExpiresIn);
    const storedGrace = values.get(KEYS.jwtRefreshGraceSeconds);
    const storedAllow = values.get(KEYS.allowRegistration);
    const storedMaxAge = values.get(KEYS.sessionMaxAgeSeconds);
    const storedTwoFactorRoles = values.get(KEYS.requireTwoFactorRoles);
    const storedRequireVerified = values.get(KEYS.requireVerifiedEmail);

    const jwtExpiresIn = config.jwtExpiresIn
      ? { ...config.jwtExpiresIn, source: 'env' as const }
      : typeof storedExpires === 'string' && parseDurationSeconds(storedExpires) !== null
        ? { value: storedExpires, seconds: parseDurationSeconds(storedExpires) as number, source: 'admin' as const }
        : { value: DEFAULT_JWT_EXPIRES_IN, seconds: parseDurationSeconds(DEFAULT_JWT_EXPIRES_IN) as number, source: 'default' as const };

    const grace: { value: number; source: SettingSource } =
      config.jwtRefreshGraceSeconds !== undefined
        ? { value: config.jwtRefreshGraceSeconds, source: 'env' }
        : typeof storedGrace === 'number'
          ? { value: storedGrace, source: 'admin' }
          : { value: DEFAULT_JWT_REFRESH_GRACE_SECONDS, source: 'default' };

    const maxAge: { value: number; source: SettingSource } = config.sessionMaxAge
      ? { value: config.sessionMaxAge.seconds, source: 'env' }
      : typeof storedMaxAge === 'number'
        ? { value: storedMaxAge, source: 'admin' }
        : { value: DEFAULT_SESSION_MAX_AGE_SECONDS, source: 'default' };

    return {
      jwtExpiresIn,
      jwtRefreshGraceSeconds: { ...grace, seconds: grace.value },
      sessionMaxAgeSeconds: { ...maxAge, seconds: maxAge.value },
      allowRegistration:
        typeof storedAllow === 'boolean' ? { value: storedAllow, source: 'admin' } : { value: true, source: 'default' },
      // Only known roles, in the catalogue's order: a stored list never names a role that does not exist.
      requireTwoFactorRoles: Array.isArray(storedTwoFactorRoles)
        ? { value: ROLES.filter((role) => storedTwoFactorRoles.includes(role)), source: 'admin' }
        : { value: [], source: 'default' },
      requireVerifiedEmail:
        typeof storedRequireVerified === 'boolean' ? { value: storedRequireVerified, source: 'admin' } : { value: false, source: 'default' },
    };
  }

  /**
   * Stores the given admin values (validated by the caller's schema), records `settings.updated` with
   * each change as `{ from, to, source }`, and answers the resolved settings.
   */
  async function updateSecuritySettings(update: SecuritySettingsUpdate, audit: AdminAudit): Promise<SecuritySettings> {
    const entries = Object.entries(update).filter(([, value]) => value !== undefined) as Array<[keyof typeof KEYS, unknown]>;
    const before = await getSecuritySettings();
    await models.Setting.sequelize!.transaction(async (transaction) => {
      for (const [name, value] of entries) {
        await models.Setting.upsert({ key: KEYS[name], value }, { transaction });
      }
    });
    await stored.changed();
    const after = await getSecuritySettings();
    const changes = Object.fromEntries(entries.map(([name, value]) => [name, { from: before[name].value, to: value, source: after[name].source }]));
    await activity.record({ action: 'settings.updated', userId: audit.actor.id, email: audit.actor.email, details: { changes } }, audit.context);
    return after;
  }

  return { getSecuritySettings, updateSecuritySettings };
}

export type SettingsService = ReturnType<typeof createSettingsService>;
