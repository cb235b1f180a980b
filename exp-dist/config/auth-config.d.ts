import { type NormalizedProfileDefinition } from '../profiles/profile-definition';
/**
 * Reads the AUTH_CONFIG file (`.json`, or `.js` whose export is `{ userProfile }`) once at boot and
 * validates the profile definition; any problem becomes a ConfigError naming the file and field.
 */
export declare function loadProfileDefinition(configPath: string | undefined): NormalizedProfileDefinition;
