import type { Config } from '../config/config';
import type { Models } from '../models';
export type SettingSource = 'env' | 'admin' | 'default';
export declare const DEFAULT_JWT_EXPIRES_IN = "30d";
export declare const DEFAULT_JWT_REFRESH_GRACE_SECONDS = 604800;
export interface SecuritySettings {
    jwtExpiresIn: {
        value: string;
        seconds: number;
        source: SettingSource;
    };
    jwtRefreshGraceSeconds: {
        value: number;
        seconds: number;
        source: SettingSource;
    };
    allowRegistration: {
        value: boolean;
        source: SettingSource;
    };
}
export interface SecuritySettingsUpdate {
    jwtExpiresIn?: string;
    jwtRefreshGraceSeconds?: number;
    allowRegistration?: boolean;
}
/**
 * Admin-editable settings. Security values resolve environment → admin setting → default; an
 * environment value is a ceiling the admin cannot lift, so a stored admin value under it stays inactive.
 */
export declare function createSettingsService({ config, models }: {
    config: Config;
    models: Models;
}): {
    getSecuritySettings: () => Promise<SecuritySettings>;
    updateSecuritySettings: (update: SecuritySettingsUpdate) => Promise<SecuritySettings>;
};
export type SettingsService = ReturnType<typeof createSettingsService>;
