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
import { createRateLimits } from './middleware/rate-limit';
import { createMailer } from './services/mailer';
import { createPasswordResetService } from './services/password-reset.service';
import { createPasswordService } from './auth/password.service';
import { createPasswordLogin } from './auth/password-login';
import { createUserService } from './services/user.service';
import { createAuthService } from './services/auth.service';
import { createCsrf } from './middleware/csrf';
import { createAuthCookies } from './auth/cookies';
import { createPluginRegistry } from './plugins/plugin-registry';
import { createUserAdminService } from './services/user-admin.service';
import { createCollectionService } from './services/collection.service';
import { createContentService } from './services/content.service';
import { ApiDocs } from './http/api-router';
import { createProfileService } from './profiles/profile.service';
import { EMPTY_PROFILE_DEFINITION, type NormalizedProfileDefinition } from './profiles/profile-definition';

/** What the app is built from: opened connections and validated configuration (see server.ts). */
export interface AppDependencies {
  config: Config;
  logger: Logger;
  sequelize: Sequelize;
  models: Models;
  store: KeyValueStore;
  /** Custom profile fields from AUTH_CONFIG (none when absent). */
  profileDefinition?: NormalizedProfileDefinition;
}

/** The composition root: every service gets its collaborators here, and only here. */
export function createContainer(deps: AppDependencies) {
  const { config, logger, models, store } = deps;
  const settings = createSettingsService({ config, models });
  const activity = createActivityService({ models, logger });
  const plugins = createPluginRegistry({ models, activity });
  const tokens = createTokenService({ config, models, store, settings, logger });
  const passwords = createPasswordService({ iterations: config.passwordIterations });
  const passport = createPassport({ tokens, passwordLogin: createPasswordLogin({ models, passwords, logger }) });
  const guards = createGuards(passport, [STRATEGY.jwt]);
  const profiles = createProfileService({ definition: deps.profileDefinition ?? EMPTY_PROFILE_DEFINITION, models, tokens });
  const users = createUserService({ sequelize: deps.sequelize, models, passwords, profiles });
  const userAdmin = createUserAdminService({ sequelize: deps.sequelize, models, tokens, activity, users });
  const collections = createCollectionService({ models });
  const content = createContentService({ models });
  const auth = createAuthService({ config, users, tokens, settings, activity, profiles });
  const csrf = createCsrf({ secret: config.jwtSecret, tokens });
  const cookies = createAuthCookies({ secure: config.isProduction, csrf });
  const docs = new ApiDocs({ title: 'Auth service API', version: '1.0.0' });
  const limits = createRateLimits({ store, logger });
  const mailer = createMailer({ config, logger });
  const passwordReset = createPasswordResetService({
    config, sequelize: deps.sequelize, models, activity, mailer, logger,
    hashPassword: passwords.hash,
    revokeAllForUser: tokens.revokeAllForUser,
  });
  return { ...deps, settings, activity, tokens, passport, guards, docs, profiles, limits, mailer, passwordReset, plugins, passwords, users, auth, csrf, cookies, userAdmin, collections, content };
}

export type Container = ReturnType<typeof createContainer>;
