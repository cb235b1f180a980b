import fs from 'node:fs';
import path from 'node:path';
import { ConfigError } from './config';
import { validateAuthConfig } from '../profiles/profile-definition';
import { EMPTY_PROFILE_DEFINITION, ProfileDefinitionError, type NormalizedProfileDefinition } from '../profiles/profile-types';

/**
 * Reads the AUTH_CONFIG file (`.json`, or `.js` whose export is `{ userProfile }`) once at boot and
 * validates the profile definition; any problem becomes a ConfigError naming the file and field.
 */
export function loadProfileDefinition(configPath: string | undefined): NormalizedProfileDefinition {
  if (!configPath) return EMPTY_PROFILE_DEFINITION;
  const file = path.resolve(configPath);
  let exported: unknown;
  try {
    if (file.endsWith('.json')) exported = JSON.parse(fs.readFileSync(file, 'utf8'));
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    else if (file.endsWith('.js') || file.endsWith('.cjs')) exported = require(file);
    else throw new Error('must be a .js or .json file');
  } catch (err) {
    throw new ConfigError(`Invalid configuration: AUTH_CONFIG (${file}) ${(err as Error).message.split('\n')[0]}`);
  }
  try {
    return validateAuthConfig(exported).userProfile;
  } catch (err) {
    if (err instanceof ProfileDefinitionError) throw new ConfigError(`Invalid configuration: AUTH_CONFIG (${file}): ${err.message}`);
    throw err;
  }
}
