import os from 'node:os';
import type { Logger } from 'pino';
import type { Sequelize } from 'sequelize';
import type { Config } from './config/config';
import type { Models } from './models';
import type { KeyValueStore } from './store';
import { createSettingsService } from './services/settings.service';
import { createActivityService } from './services/activity.service';
import { createTokenService } from './sessions/token.service';
import { createRevocations } from './sessions/revocations';
import { createSessionService } from './services/session.service';
import { createPassport } from './sign-in/passport';
import { createTokenCheck } from './sessions/token-check';
import { createSessionCheck } from './sessions/session-check';
import { createGuards } from './middleware/guards';
import { createAdminPages } from './middleware/admin-pages';
import { createEmailQuota, createRateLimits } from './middleware/rate-limit';
import { createMailer } from './services/mailer';
import { createPasswordResetService } from './services/password-reset.service';
import { createOtpService } from './services/otp.service';
import { createMagicLinkService } from './services/magic-link.service';
import { createServerSessions } from './sessions/server-session';
import { createOAuthProviders } from './oauth/oauth-providers';
import { createOAuthService } from './services/oauth.service';
import { createPasskeyService } from './services/passkey.service';
import { createSecurityNotices } from './services/security-notices';
import { createPasswordService } from './credentials/password.service';
import { createPasswordLogin } from './sign-in/password-login';
import { createAuthUserRecords } from './sessions/auth-user-records';
import { createAccountThrottle } from './credentials/account-throttle';
import { createPasswordCheck } from './credentials/password-check';
import { createAuthenticate } from './sign-in/authenticate';
import { createSessionStep } from './sign-in/session-step';
import { createUserService } from './services/user.service';
import { createAuthService } from './services/auth.service';
import { createCsrf } from './middleware/csrf';
import { createAuthCookies } from './sign-in/cookies';
import { createPluginRegistry } from './plugins/plugin-registry';
import { createUserAdminService } from './services/user-admin.service';
import { createAccountService } from './services/account.service';
import { createCollectionService } from './services/collection.service';
import { createContentService } from './services/content.service';
import { ApiDocs } from './http/api-router';
import { createProfileService } from './profiles/profile.service';
import { createMetrics } from './metrics/metrics';
import { EMPTY_PROFILE_DEFINITION, type NormalizedProfileDefinition } from './profiles/profile-types';

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
  const { config, logger, models, store, sequelize } = deps;
  // Leaves first: each line uses only what the lines above it built.
  // This app's own registry; process metrics only when /metrics is served (METRICS_TOKEN).
  const metrics = createMetrics({ store, processMetrics: config.metricsToken !== undefined });
  const activity = createActivityService({ sequelize, models, logger, store });
  const settings = createSettingsService({ config, models, activity, store, logger });
  const plugins = createPluginRegistry({ models, activity, allowPrivateOutbound: config.allowPrivateOutbound });
  const mailer = createMailer({ config, logger, plugins, metrics });
  const docs = new ApiDocs({ title: 'Auth service API', version: '1.0.0', baseUrl: config.baseUrl });
  const limits = createRateLimits({ store, logger, metrics });
  // Hashes at once: one pool thread stays free for SQLite, and no more than there are cores, so hashing
  // never outnumbers the cores the event loop shares with it (measured on 2 cores: /auth/me p99 under
  // login load 22-23 ms against 30-55 ms with three hashes, at the same logins per second).
  const passwords = createPasswordService({
    iterations: config.passwordIterations,
    maxConcurrent: Math.max(1, Math.min(config.threadPoolSize - 1, os.availableParallelism())),
  });
  const authUsers = createAuthUserRecords(sequelize);
  const revocations = createRevocations({ models, store, logger });
  const tokens = createTokenService({ config, models, authUsers, store, settings, revocations, logger });
  const notices = createSecurityNotices({ config, mailer, logger });
  // One row per sign-in (CONTRACT 8); named apart from `sessions`, the magic link's server sessions.
  const userSessions = createSessionService({ config, models, revocations, settings, activity, notices, metrics, logger });
  const csrf = createCsrf({ secret: config.jwtSecret, tokens });
  const cookies = createAuthCookies({ secure: config.isProduction, csrf });
  const profiles = createProfileService({ definition: deps.profileDefinition ?? EMPTY_PROFILE_DEFINITION, models, tokens, activity });
  const users = createUserService({ sequelize, models, passwords, profiles, settings });
  const userAdmin = createUserAdminService({ sequelize, models, tokens, activity, users });
  const collections = createCollectionService({ models });
  const content = createContentService({ models });
  const auth = createAuthService({ config, users, tokens, userSessions, activity, profiles, metrics });
  const accountThrottle = createAccountThrottle({ store, logger });
  // Every password check goes through the throttle: sign-in and the profile's current password alike.
  const checkPassword = createPasswordCheck({ passwords, throttle: accountThrottle });
  const account = createAccountService({ sequelize, models, passwords, checkPassword, tokens, activity });
  const passwordReset = createPasswordResetService({
    config, sequelize, models, activity, mailer, logger,
    hashPassword: passwords.hash,
    revokeAllForUser: tokens.revokeAllForUser,
    clearSignInFailures: accountThrottle.clear,
    mailsPerEmail: createEmailQuota({ store, logger, name: 'password-reset-email' }),
  });

  const otp = createOtpService({ config, sequelize, models, authUsers, store, plugins, mailer, settings, users, throttle: accountThrottle, logger });
  const magicLinks = createMagicLinkService({
    config, sequelize, models, authUsers, mailer, settings, users, logger,
    mailsPerEmail: createEmailQuota({ store, logger, name: 'magic-link-email' }),
  });
  const sessions = createServerSessions({ config, store, logger });
  const oauthProviders = createOAuthProviders({ config, plugins, store });
  const oauth = createOAuthService({ sequelize, models, users, activity, providers: oauthProviders, notices });
  const passkeys = createPasskeyService({ config, models, authUsers, store, activity, notices });

  // Sign-in: the strategies get the services they need; every method ends in the one session step.
  const passport = createPassport({ passwordLogin: createPasswordLogin({ models, authUsers, passwords, checkPassword, logger }), otp, magicLinks, oauthProviders, oauth, passkeys });
  // A Bearer token or auth_token cookie first; a magic-link server session (auth_session) second.
  const guards = createGuards({ credentials: [createTokenCheck(tokens, userSessions.touch), createSessionCheck(tokens, userSessions.touch)] });
  const authenticate = createAuthenticate({ passport, activity, metrics });
  const issueSession = createSessionStep({ tokens, userSessions, cookies, activity, profiles, metrics });
  const adminPages = createAdminPages({ guards });

  return {
    ...deps, metrics, activity, settings, plugins, mailer, docs, limits, passwords, tokens, userSessions, csrf, cookies, profiles, users, userAdmin, account,
    collections, content, auth, accountThrottle, passwordReset, otp, magicLinks, sessions, oauthProviders, notices, oauth, passkeys, passport, guards, authenticate, issueSession, adminPages,
  };
}

export type Container = ReturnType<typeof createContainer>;
