import { emailPlugin, type EmailSettings } from './email.plugin';
import { otpLoginPlugin, type OtpLoginSettings } from './otp-login.plugin';
import { oauthProvidersPlugin, type OAuthProvidersSettings } from './oauth-providers.plugin';

/** Every plugin the service knows, in the order the admin pages list them. */
export const PLUGINS = [emailPlugin, otpLoginPlugin, oauthProvidersPlugin] as const;

export const PLUGIN_NAMES = PLUGINS.map((plugin) => plugin.name) as ['email', 'otp-login', 'oauth-providers'];

/** The settings type of each plugin, by name (what `plugins.settingsOf(name)` answers). */
export interface PluginSettingsMap {
  email: EmailSettings;
  'otp-login': OtpLoginSettings;
  'oauth-providers': OAuthProvidersSettings;
}
export type PluginName = keyof PluginSettingsMap;

/** What a reader of plugin settings needs (the OAuth providers, say): the registry (services/operations) gives it. */
export interface PluginSettingsReader {
  isActive(name: PluginName): Promise<boolean>;
  settingsOf<N extends PluginName>(name: N): Promise<PluginSettingsMap[N]>;
}

export { SECRET_MASK } from './plugin-definition';
export type { EmailSettings, OtpLoginSettings, OAuthProvidersSettings };
export type { OAuthProviderSettings } from './oauth-providers.plugin';
