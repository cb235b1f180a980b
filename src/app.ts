import path from 'node:path';
import { databaseRequestScope } from './db/read-replicas';
import express, { type Express } from 'express';
import { createContainer, type AppDependencies } from './container';
import { requestLogger } from './http/request-logger';
import { securityHeaders } from './http/security-headers';
import { accountPage } from './http/account-sections';
import { bodyParsing } from './http/body-parsing';
import { cookieParsing } from './http/cookie-parsing';
import { urlParam } from './http/url-param';
import { chain } from './http/chain';
import { noStoreAll } from './http/no-store';
import { createErrorHandler, notFoundHandler } from './http/error-handler';
import { requestMetrics } from './metrics/request-metrics';
import { metricsRoutes } from './routes/metrics.routes';
import { healthRoutes } from './routes/health.routes';
import { docsRoutes } from './routes/docs.routes';
import { profileRoutes } from './routes/profile.routes';
import { passwordResetRoutes } from './routes/password-reset.routes';
import { authRoutes } from './routes/auth.routes';
import { accountRoutes } from './routes/account.routes';
import { otpRoutes } from './routes/otp.routes';
import { magicLinkRoutes } from './routes/magic-link.routes';
import { sessionsRoutes, userSessionsRoutes } from './routes/sessions.routes';
import { apiKeysRoutes, userApiKeysRoutes } from './routes/api-keys.routes';
import { signingKeysRoutes, wellKnownRoutes } from './routes/signing-keys.routes';
import { connectedAppsRoutes, oauthClientsRoutes } from './routes/oauth-clients.routes';
import { oauthRoutes } from './routes/oauth.routes';
import { twoFactorRoutes, userTwoFactorRoutes } from './routes/two-factor.routes';
import { passkeyBrowserBundle, passkeySecondStepRoutes, passkeysRoutes } from './routes/passkeys.routes';
import { usersRoutes } from './routes/users.routes';
import { USER_IMPORT_PATH, userTransferRoutes } from './routes/user-transfer.routes';
import { collectionsRoutes } from './routes/collections.routes';
import { contentRoutes } from './routes/content.routes';
import { activityRoutes } from './routes/activity.routes';
import { pluginsRoutes } from './routes/plugins.routes';
import { settingsRoutes } from './routes/settings.routes';
import { webhooksRoutes } from './routes/webhooks.routes';
import { adminRoutes } from './routes/admin';
import { oidcInteractionRoutes, oidcMount } from './routes/oidc.routes';
import { ssoProvidersRoutes, ssoRoutes } from './routes/sso.routes';
import { jsonFieldText } from './profiles/profile-form';
import type { Outbox } from './services/operations/outbox';
import type { SearchIndexFill } from './services/accounts/search-index-fill';

const ROOT = path.resolve(__dirname, '..');

/** The app's outbox (CONTRACT 16): server.ts starts its worker after listening and stops it on shutdown; tests drive it. */
export function outboxOf(app: Express): Outbox {
  return app.locals.outbox as Outbox;
}

/** The app's search index fill (issue 50): server.ts starts its poll and stops it on shutdown; an import starts it too. */
export function searchIndexOf(app: Express): SearchIndexFill {
  return app.locals.searchIndex as SearchIndexFill;
}

/** Builds the Express app from opened connections; never listens (server.ts does). */
export function createApp(deps: AppDependencies): Express {
  const container = createContainer(deps);
  const { config, logger } = container;
  const app = express();

  app.set('trust proxy', config.trustProxy);
  app.set('view engine', 'ejs');
  app.set('views', path.join(ROOT, 'views'));
  // Views echo posted values into links: urlParam percent-encodes without throwing on malformed text.
  app.locals.urlParam = urlParam;
  // A json profile field's text, so a form posted back unchanged stores the same value.
  app.locals.jsonFieldText = jsonFieldText;
  // How recent a sign-in step-up routes demand (STEP_UP_MAX_AGE), read by requireRecentSignIn on each request.
  app.locals.stepUpMaxAgeSeconds = config.stepUpMaxAgeSeconds;
  app.locals.outbox = container.outbox;
  app.locals.searchIndex = container.searchIndex;
  app.disable('x-powered-by');
  // Answers are small and mostly no-store; hashing every JSON body for an ETag buys nothing.
  app.set('etag', false);

  // With read replicas, a request's reads after its own write go to the primary (db/read-replicas.ts).
  if (config.databaseReadUrls.length > 0) app.use((_req, _res, next) => databaseRequestScope(next));
  const { metrics } = container;
  // The Security section's "Link GitHub" form is answered by a redirect to the provider: its CSP form-action names them.
  // Every account center address, not the Security page alone: a refused card post there (`/admin/profile/password`)
  // draws the Security section, Link forms included, at the post's own address.
  const profileLinkForms = { page: accountPage('profile'), origins: container.oauthProviders.authorizationOrigins };
  const { metricsToken } = config;
  app.use(chain(requestLogger(logger), ...(metricsToken ? [requestMetrics(metrics)] : []), securityHeaders(config.isProduction, { formTargets: profileLinkForms })));
  // Before cookies, bodies and sessions: a scrape needs none of them. Absent without METRICS_TOKEN (404).
  if (metricsToken) app.use(metricsRoutes({ token: metricsToken, metrics }));
  app.use('/static', express.static(path.join(ROOT, 'public'), { maxAge: '1h' }));
  app.use('/static/vendor/simplewebauthn', passkeyBrowserBundle());
  // Only a request that carries an auth_session cookie reads the session store; the rest pass untouched.
  // CSRF after the session step (so a session-authenticated request is checked too) and before every
  // router, so each cookie-authenticated unsafe request (admin API included) is checked.
  // The OpenID Provider's endpoints parse their own bodies and authenticate clients, not cookies: before the chain.
  app.use(oidcMount(container.oidc, config));
  app.use(chain(cookieParsing(), bodyParsing({ streamed: [USER_IMPORT_PATH] }), container.sessions.load, container.csrf.protect));

  app.use('/health', healthRoutes(container));
  app.use('/oidc/interaction', oidcInteractionRoutes(container));
  app.use('/.well-known', wellKnownRoutes(container));
  // API answers hold personal data (users, profiles, activity): no cache keeps them, the browser's included.
  app.use('/api', noStoreAll);
  app.use('/api/user-profiles', profileRoutes(container));
  app.use('/auth', authRoutes(container));
  app.use('/auth/otp', otpRoutes(container));
  app.use('/auth', magicLinkRoutes(container));
  app.use('/auth/oauth', oauthRoutes(container));
  app.use('/auth/sso', ssoRoutes(container));
  app.use('/auth/sessions', sessionsRoutes(container));
  app.use('/auth/api-keys', apiKeysRoutes(container));
  app.use('/auth/connected-apps', connectedAppsRoutes(container));
  app.use('/auth', twoFactorRoutes(container));
  app.use('/auth', accountRoutes(container));
  app.use('/auth/passkeys', passkeysRoutes(container));
  app.use('/auth/2fa/passkey', passkeySecondStepRoutes(container));
  // After the sign-in routes: a router a request passes through without a match costs it a setImmediate hop.
  app.use('/auth', passwordResetRoutes(container));
  // Before the users table, whose /users/:id would take /users/export.
  app.use('/api', userTransferRoutes(container));
  app.use('/api', usersRoutes(container));
  app.use('/api', userSessionsRoutes(container));
  app.use('/api', userApiKeysRoutes(container));
  app.use('/api', userTwoFactorRoutes(container));
  app.use('/api', collectionsRoutes(container));
  app.use('/api', contentRoutes(container));
  app.use('/api', activityRoutes(container));
  app.use('/api', pluginsRoutes(container));
  app.use('/api', settingsRoutes(container));
  app.use('/api', signingKeysRoutes(container));
  app.use('/api', oauthClientsRoutes(container));
  app.use('/api', ssoProvidersRoutes(container));
  app.use('/api', webhooksRoutes(container));
  app.use('/admin', adminRoutes(container));
  // Documentation last among routes: every API router has registered its endpoints by then.
  app.use(docsRoutes(container.docs));

  app.use(notFoundHandler);
  app.use(createErrorHandler((kind) => metrics.databaseError(kind)));
  return app;
}
