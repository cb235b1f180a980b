import type { Logger } from 'pino';
import type { Sequelize } from 'sequelize';
import type { Config } from '../../config/config';
import type { Models } from '../../models';
import type { KeyValueStore } from '../../store';
import { createSigningKeys, type SigningKeys } from '../../sessions/signing-keys';
import { createActivityService } from '../operations/activity.service';
import { createSettingsService } from '../operations/settings.service';
import { createProviderKeys } from '../oidc-provider/provider-keys';
import { createKeyRotation } from './key-rotation.service';

/**
 * The signing keys outside an app: for the start's check (server.ts: a corrupt or missing key stops the
 * start with one line) and for `npm run keys:rotate`. Rotation reads the security settings (token lifetime
 * and grace decide when the replaced key retires), so they are built here from the same connections.
 */
export function standaloneSigningKeys(deps: { config: Config; sequelize: Sequelize; models: Models; store: KeyValueStore; logger: Logger }): SigningKeys {
  const { config, sequelize, models, store, logger } = deps;
  const activity = createActivityService({ sequelize, models, logger, store });
  const settings = createSettingsService({ config, models, activity, store, logger });
  return createSigningKeys({ config, models, store, settings, logger });
}

/** `npm run keys:rotate` (CONTRACT 11 and 14): the service's keys (checked as at the start) and the OpenID Provider's. */
export async function standaloneKeyRotation(deps: { config: Config; sequelize: Sequelize; models: Models; store: KeyValueStore; logger: Logger }) {
  const signingKeys = standaloneSigningKeys(deps);
  await signingKeys.prepare();
  const providerKeys = createProviderKeys({ models: deps.models, store: deps.store, jwtSecret: deps.config.jwtSecret, logger: deps.logger });
  return createKeyRotation({ signingKeys, providerKeys });
}
