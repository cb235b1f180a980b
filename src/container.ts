import type { Logger } from 'pino';
import type { Sequelize } from 'sequelize';
import type { Config } from './config/config';
import type { Models } from './models';
import type { KeyValueStore } from './store';
import { createSettingsService } from './services/operations/settings.service';
import { createActivityService } from './services/operations/activity.service';
import { createActivityRollup } from './services/dashboard/activity-rollup';
import { createDashboardService } from './services/dashboard/dashboard.service';
import { createTokenService } from './sessions/token.service';
import { createRevocations } from './sessions/revocations';
import { createSigningKeys } from './sessions/signing-keys';
import { createApiKeyCheck, createApiKeyVerifier } from './sessions/api-key-check';
import { createApiKeyHasher } from './credentials/api-keys';
import { createApiKeyService } from './services/security/api-key.service';
import { createSessionService } from './services/security/session.service';
import { createPassport } from './sign-in/passport';
import { createTokenCheck } from './sessions/token-check';
import { createSessionCheck } from './sessions/session-check';
import { createGuards } from './middleware/guards';
import { createAdminPages } from './middleware/admin-pages';
import { createEmailQuota, createRateLimits } from './middleware/rate-limit';
import { createMailer } from './services/operations/mailer';
import { createMailOutbox } from './services/operations/mail-outbox';
import { createPasswordResetService } from './services/sign-in-methods/password-reset.service';
import { createOtpService } from './services/sign-in-methods/otp.service';
import { createMagicLinkService } from './services/sign-in-methods/magic-link.service';
import { createServerSessions } from './sessions/server-session';
import { createOAuthProviders } from './oauth/oauth-providers';
import { createOAuthService } from './services/sign-in-methods/oauth.service';
import { createSsoProviderService } from './services/sso/sso-providers.service';
import { createSsoAccountService } from './services/sso/sso-accounts.service';
import { createSsoOidc } from './sign-in/sso/oidc.strategy';
import { createSamlStrategy } from './sign-in/sso/saml.strategy';
import { SsoSamlSignInStrategy } from './sign-in/sso/saml-sign-in.strategy';
import { createSsoEnforcement } from './middleware/sso-enforcement';
import { createPasskeyService } from './services/sign-in-methods/passkey.service';
import { createSecurityNotices } from './services/security/security-notices';
import { createCredentialSet } from './services/security/credential-set/credential-set';
import { createCredentialKinds } from './services/security/credential-set/credential-kinds';
import { createTwoFactorService } from './services/security/two-factor.service';
import { createStepUpService } from './services/security/step-up.service';
import { createSecondFactor } from './sign-in/second-factor';
import { createTwoFactorGate } from './middleware/two-factor-gate';
import { createEmailLinks } from './services/accounts/email-links';
import { createEmailVerificationService } from './services/accounts/email-verification.service';
import { createAccountLifecycleService } from './services/accounts/account-lifecycle.service';
import { createPasswordService } from './credentials/password.service';
import { nameTheService } from './credentials/password-quality';
import { createPasswordLogin } from './sign-in/password-login';
import { createPasswordAdmission } from './sign-in/password-admission';
import { createAuthUserRecords } from './sessions/auth-user-records';
import { createAccountThrottle } from './credentials/account-throttle';
import { createPasswordCheck } from './credentials/password-check';
import { createDeviceCookies } from './sign-in/device-cookies';
import { createAuthenticate } from './sign-in/authenticate';
import { createSessionStep } from './sign-in/session-step';
import { createUserService } from './services/accounts/user.service';
import { createAuthService } from './services/sign-in-methods/auth.service';
import { createCsrf } from './middleware/csrf';
import { createAuthCookies } from './sign-in/cookies';
import { createPluginRegistry } from './services/operations/plugin-registry';
import { createUserAdminService } from './services/accounts/user-admin.service';
import { createAccountService } from './services/accounts/account.service';
import { createCollectionService } from './services/content/collection.service';
import { createContentService } from './services/content/content.service';
import { createOAuthClientService } from './services/oidc-provider/oauth-clients.service';
import { createOidcConsentService } from './services/oidc-provider/consent.service';
import { createOidcProvider } from './services/oidc-provider/provider';
import { createProviderKeys } from './services/oidc-provider/provider-keys';
import { createKeyRotation } from './services/security/key-rotation.service';
import { renderProviderPage } from './http/provider-page';
import { ApiDocs } from './http/api-router';
import { oncePerRequest } from './http/per-request';
import { createProfileService } from './services/accounts/profile.service';
import { createMetrics } from './metrics/metrics';
import { createOutbox } from './services/operations/outbox';
import { createWebhookService } from './services/operations/webhooks.service';
import { EMPTY_PROFILE_DEFINITION, type NormalizedProfileDefinition } from './profiles/profile-types';
import { createUserImport } from './services/user-transfer/user-import';
import { createSearchIndexFill } from './services/accounts/search-index-fill';
import { createUserExport } from './services/user-transfer/user-export';
import { checkImportRecord } from './schemas/user-transfer.schemas';

/** What the app is built from: opened connections and validated configuration (see server.ts). */
export interface AppDependencies {
  config: Config;
  logger: Logger;
  sequelize: Sequelize;
  models: Models;
  store: KeyValueStore;
  /** Custom profile fields from AUTH_CONFIG (none when absent). */
  profileDefinition?: NormalizedProfileDefinition;
  /** Whether the process is shutting down (readiness answers 503 then); never, for an app without a server of its own. */
  isDraining?: () => boolean;
}

/** The composition root: every service gets its collaborators here, and only here. */
export function createContainer(deps: AppDependencies) {
  const { config, logger, models, store, sequelize } = deps;
  // Leaves first: each line uses only what the lines above it built.
  // This app's own registry; process metrics only when /metrics is served (METRICS_TOKEN).
  const metrics = createMetrics({ store, processMetrics: config.metricsToken !== undefined });
  // The activity log counts every row in the dashboard's hourly rollup as it writes it.
  const activityRollup = createActivityRollup({ sequelize });
  const activity = createActivityService({ sequelize, models, logger, store, rollup: activityRollup });
  const dashboard = createDashboardService({ sequelize, models, rollup: activityRollup });
  const settings = createSettingsService({ config, models, activity, store, logger });
  const plugins = createPluginRegistry({ models, activity, allowPrivateOutbound: config.allowPrivateOutbound });
  // CONTRACT 16: durable work outside the request (webhook deliveries, mail); server.ts starts and stops its worker.
  const outbox = createOutbox({ sequelize, models, logger, onAttempt: (kind, outcome) => metrics.outboxAttempt(kind, outcome) });
  metrics.watchOutboxPending(outbox.pendingCounts);
  // Every mail is recorded in the outbox and retried there; the transport is one attempt (SMTP_URL or the plugin).
  const mailer = createMailOutbox({ config, models, outbox, transport: createMailer({ config, logger, plugins, metrics }), logger });
  // `events.record(type, data, { transaction })`: how any change fires an event (only when an endpoint listens).
  const webhooks = createWebhookService({ config, sequelize, models, store, outbox, activity, mailer, logger });
  const events = { record: webhooks.record, recordForUser: webhooks.recordForUser, listens: webhooks.listens };
  const docs = new ApiDocs({ title: 'Auth service API', version: '1.0.0', baseUrl: config.baseUrl });
  const limits = createRateLimits({ store, logger, metrics });
  nameTheService(config.appName);
  const passwords = createPasswordService({ iterations: config.passwordIterations });
  const authUsers = createAuthUserRecords(sequelize);
  const revocations = createRevocations({ models, store, logger });
  // CONTRACT 11: HS256 with JWT_SECRET, or database keys every instance rotates to at once.
  const signingKeys = createSigningKeys({ config, models, store, settings, logger });
  const tokens = createTokenService({ config, models, authUsers, store, settings, revocations, signingKeys, logger });
  const apiKeyHasher = createApiKeyHasher(config.jwtSecret);
  const apiKeyVerifier = createApiKeyVerifier({ models, authUsers, store, revocations, hasher: apiKeyHasher, rateLimit: config.apiKeyRateLimit, logger });
  const notices = createSecurityNotices({ config, mailer, logger });
  // CONTRACT 18: the registry of an account's credential kinds and the one table of events that end them.
  const credentialSet = createCredentialSet({ sequelize, models, kinds: createCredentialKinds({ models, tokens, revocations }), notices });
  const apiKeys = createApiKeyService({ sequelize, models, hasher: apiKeyHasher, verifier: apiKeyVerifier, revocations, activity, notices, credentials: credentialSet, events });
  // CONTRACT 12: verification and change-of-address links; codes, links and providers prove addresses through it.
  const emailLinks = createEmailLinks({ models, baseUrl: config.baseUrl });
  const emailVerification = createEmailVerificationService({ sequelize, models, store, mailer, links: emailLinks, settings, tokens, credentials: credentialSet, activity, logger, events });
  // One row per sign-in (CONTRACT 8); named apart from `sessions`, the magic link's server sessions.
  const userSessions = createSessionService({ config, models, revocations, settings, activity, notices, metrics, logger, events });
  const csrf = createCsrf({ secret: config.jwtSecret, tokens });
  const cookies = createAuthCookies({ secure: config.isProduction, csrf });
  const profiles = createProfileService({ definition: deps.profileDefinition ?? EMPTY_PROFILE_DEFINITION, models, tokens, activity, events });
  const users = createUserService({ sequelize, models, passwords, profiles, settings, events });
  const userAdmin = createUserAdminService({ sequelize, models, tokens, credentials: credentialSet, activity, users, events });
  // CONTRACT 17: import and export; the records are checked with the schema layer's rules, handed down here.
  const searchIndex = createSearchIndexFill({ sequelize, logger });
  const userImport = createUserImport({ sequelize, models, passwords, users, profiles, credentials: credentialSet, tokens, activity, events, checkRecord: checkImportRecord, searchIndex, logger });
  const userExport = createUserExport({ models, activity, profiles });
  const collections = createCollectionService({ models });
  const content = createContentService({ models });
  const auth = createAuthService({ config, users, tokens, userSessions, activity, profiles, metrics, verification: emailVerification, credentials: credentialSet });
  const accountThrottle = createAccountThrottle({ store, logger });
  // Every password check goes through the throttle: sign-in and the profile's current password alike.
  const checkPassword = createPasswordCheck({ passwords, throttle: accountThrottle, deviceThrottle: createAccountThrottle({ store, logger, name: 'device-throttle' }) });
  const account = createAccountService({ sequelize, models, passwords, checkPassword, credentials: credentialSet, userSessions, activity, events });
  // CONTRACT 9: TOTP and recovery codes.
  const twoFactor = createTwoFactorService({ config, sequelize, models, tokens, credentials: credentialSet, activity, notices, settings, throttle: accountThrottle, events });
  const lifecycle = createAccountLifecycleService({ sequelize, models, checkPassword, tokens, credentials: credentialSet, userSessions, links: emailLinks, mailer, notices, activity, logger, mailsPerEmail: createEmailQuota({ store, logger, name: 'email-change-email' }), events });
  const passwordReset = createPasswordResetService({
    config, sequelize, models, activity, mailer, logger, events,
    hashPassword: passwords.hash,
    credentials: credentialSet,
    clearSignInFailures: accountThrottle.clear,
    mailsPerEmail: createEmailQuota({ store, logger, name: 'password-reset-email' }),
  });

  // The otp-login plugin as a request found it: its guard, page and strategy share one read, and every request
  // reads it afresh, so an admin's switch applies at once on every instance.
  const otpPlugin = oncePerRequest(() => plugins.stateOf('otp-login'));
  const otp = createOtpService({ config, sequelize, models, authUsers, store, mailer, settings, users, throttle: accountThrottle, logger, verification: emailVerification });
  const magicLinks = createMagicLinkService({
    config, sequelize, models, authUsers, mailer, settings, users, logger,
    mailsPerEmail: createEmailQuota({ store, logger, name: 'magic-link-email' }),
    verification: emailVerification,
  });
  const sessions = createServerSessions({ config, store, logger });
  // The second step of sign-in: its registry of kinds (passkeys register theirs here too), challenges in the store.
  const secondFactor = createSecondFactor({ store, authUsers, throttle: accountThrottle, secondFactorThrottle: createAccountThrottle({ store, logger, name: '2fa-throttle' }), secure: config.isProduction, logger });
  for (const kind of twoFactor.secondFactorKinds()) secondFactor.register(kind);
  const oauthProviders = createOAuthProviders({ config, plugins, store });
  const oauth = createOAuthService({ sequelize, models, users, activity, providers: oauthProviders, notices, verification: emailVerification });
  // CONTRACT 15: enterprise single sign-on; its identities are linked accounts (`sso:<slug>`) like OAuth's.
  const ssoProviders = createSsoProviderService({ config, sequelize, models, activity });
  const ssoAccounts = createSsoAccountService({ sequelize, models, users, activity, notices, verification: emailVerification });
  const ssoOidc = createSsoOidc({ config, store, providers: ssoProviders, accounts: ssoAccounts });
  const ssoEnforcement = createSsoEnforcement(ssoProviders);
  const samlProtocol = createSamlStrategy({
    baseUrl: config.baseUrl,
    store,
    settingsFor: async (slug) => {
      const record = await ssoProviders.bySlug(slug);
      return record ? ssoProviders.samlSettings(record.row) : null;
    },
  });
  const ssoSaml = new SsoSamlSignInStrategy({ saml: samlProtocol, providers: ssoProviders, accounts: ssoAccounts });
  const passkeys = createPasskeyService({ config, sequelize, models, authUsers, store, activity, notices, credentials: credentialSet, events });
  // After TOTP and recovery codes: `methods` lists the kinds in this order.
  secondFactor.register(passkeys.secondFactorKind);
  // Step-up: the password, or with a second factor on, an answer judged by the same registry (one throttle).
  const stepUp = createStepUpService({ models, checkPassword, throttle: accountThrottle, secondFactors: secondFactor, activity });

  // Sign-in: the strategies get the services they need; every method ends in the one session step.
  const devices = createDeviceCookies({ secret: config.jwtSecret });
  const passwordLogin = createPasswordLogin({ models, authUsers, passwords, checkPassword, verification: emailVerification, devices, logger });
  const passwordAdmission = createPasswordAdmission(passwordLogin);
  const passport = createPassport({ passwordLogin, otp, otpPlugin, magicLinks, oauthProviders, oauth, passkeys, secondFactor, ssoOidc: ssoOidc.strategy, ssoSaml });
  // An API key (X-API-Key or Bearer ak_…) first, judged alone; a Bearer token or auth_token cookie next; a
  // magic-link server session (auth_session) last.
  const guards = createGuards({
    credentials: [createApiKeyCheck(apiKeyVerifier), createTokenCheck(tokens, userSessions.touch), createSessionCheck(tokens, userSessions.touch)],
    gate: createTwoFactorGate({ twoFactor }),
  });
  const authenticate = createAuthenticate({ passport, activity, metrics, events });
  // 'server-session' by name: a magic-link sign-in's second step runs it on the verify route.
  const issueSession = createSessionStep({ tokens, userSessions, cookies, activity, profiles, metrics, secondFactor, devices, extensions: { 'server-session': sessions.begin } });
  const adminPages = createAdminPages({ guards });
  // CONTRACT 14: the OpenID Provider, its registered applications and the consent users give them.
  const oauthClients = createOAuthClientService({ sequelize, models, activity });
  const oidcConsent = createOidcConsentService({ sequelize, models, activity });
  const providerKeys = createProviderKeys({ models, store, jwtSecret: config.jwtSecret, logger });
  const keyRotation = createKeyRotation({ signingKeys, providerKeys });
  const oidc = createOidcProvider({
    config, sequelize, models, keys: providerKeys, authUsers, clients: oauthClients, page: renderProviderPage, activity,
    signedIn: async (token) => {
      const verified = await tokens.verify(token);
      return verified ? { userId: verified.user.id, sessionId: verified.claims.sid } : null;
    },
    endSession: userSessions.endById,
  });

  return {
    ...deps, metrics, activity, settings, plugins, mailer, outbox, searchIndex, webhooks, events, docs, limits, passwords, signingKeys, tokens, apiKeys, userSessions, csrf, cookies, profiles, users, userAdmin, userImport, userExport, account,
    collections, content, auth, emailLinks, emailVerification, lifecycle, accountThrottle, passwordReset, otp, otpPlugin, magicLinks, sessions, oauthProviders, notices, oauth, passkeys, passport, guards, authenticate, issueSession, adminPages,
    twoFactor, stepUp, secondFactor, credentialSet, oauthClients, oidcConsent, providerKeys, keyRotation, oidc, dashboard,
    ssoProviders, ssoAccounts, ssoOidc, ssoEnforcement, passwordAdmission,
  };
}

export type Container = ReturnType<typeof createContainer>;
