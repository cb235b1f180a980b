import type { Logger } from 'pino';
import type { Sequelize } from 'sequelize';
import type { Config } from './config/config';
import type { Models } from './models';
import type { KeyValueStore } from './store';
import { createSettingsService } from './services/settings.service';
import { createActivityService } from './services/activity.service';
import { createTokenService } from './auth/token.service';
import { createPassport, STRATEGY } from './auth/passport';
import { createGuards } from './middleware/guards';
import { ApiDocs } from './http/api-router';

/** What the app is built from: opened connections and validated configuration (see server.ts). */
export interface AppDependencies {
  config: Config;
  logger: Logger;
  sequelize: Sequelize;
  models: Models;
  store: KeyValueStore;
}

/** The composition root: every service gets its collaborators here, and only here. */
export function createContainer(deps: AppDependencies) {
  const { config, logger, models, store } = deps;
  const settings = createSettingsService({ config, models });
  const activity = createActivityService({ models, logger });
  const tokens = createTokenService({ config, models, store, settings, logger });
  const passport = createPassport({ tokens });
  const guards = createGuards(passport, [STRATEGY.jwt]);
  const docs = new ApiDocs({ title: 'Auth service API', version: '1.0.0' });
  return { ...deps, settings, activity, tokens, passport, guards, docs };
}

export type Container = ReturnType<typeof createContainer>;
