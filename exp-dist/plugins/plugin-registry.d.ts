import type { Models } from '../models';
import type { ActivityService } from '../services/activity.service';
import type { RequestContext } from '../http/request-context';
import { type PluginName, type PluginSettingsMap } from './index';
import { type PluginDefinition } from './plugin-definition';
type Settings = Record<string, unknown>;
/** A plugin as the API shows it: secrets masked. */
export interface PluginView {
    name: string;
    active: boolean;
    settings: Settings;
}
export interface PluginUpdate {
    active?: boolean;
    /** Merged into the stored settings (nested objects too); `null` removes a key (back to its default). */
    settings?: Settings;
}
/** Who changed a plugin, for the activity log. */
export interface PluginAudit {
    actor: {
        id: string;
        email: string;
    };
    context: RequestContext;
}
/**
 * The plugins registry: each plugin's active flag and settings (the `plugins` table; a missing row
 * means inactive with defaults). Stored settings are laid over the defaults; updates are validated
 * as the merged whole, so a range error names the field whatever was sent.
 */
export declare function createPluginRegistry(deps: {
    models: Models;
    activity: ActivityService;
    plugins?: readonly PluginDefinition[];
}): {
    names: string[];
    list: () => Promise<PluginView[]>;
    get: (name: string) => Promise<PluginView>;
    update: (name: string, change: PluginUpdate, audit?: PluginAudit) => Promise<PluginView>;
    isActive: (name: PluginName) => Promise<boolean>;
    settingsOf: <N extends PluginName>(name: N) => Promise<PluginSettingsMap[N]>;
};
export type PluginRegistry = ReturnType<typeof createPluginRegistry>;
export {};
