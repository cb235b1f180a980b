import { Router } from 'express';
import type { Container } from '../../container';
import { formPost } from '../../http/pages';
import { createSecuritySettingsPage } from '../../controllers/admin/security-settings.controller';
import { createSigningKeysCard } from '../../controllers/admin/signing-keys-card';
import { requireRecentSignIn } from '../../middleware/step-up';
import { SETTINGS_PAGE } from '../settings.routes';
import { createApplicationsPage } from '../../controllers/admin/applications.controller';
import { APPLICATIONS_PAGE } from '../../controllers/admin/applications.controller';
import { createSsoSettingsPage } from '../../controllers/admin/sso-settings.controller';
import { SSO_SETTINGS_PAGE } from '../../controllers/admin/sso-settings.controller';
import { createWebhooksPage } from '../../controllers/admin/webhooks-page.controller';
import { WEBHOOKS_PAGE } from '../webhooks.routes';

/** `/admin/settings/*`: the security settings page, the OpenID Provider's applications, the single sign-on providers and the webhooks, behind `manage:settings` (CONTRACT 6); their changes are step-up actions (CONTRACT 9). */
export function settingsPageRoutes(container: Container): Router {
  const { page } = container.adminPages;
  const security = createSecuritySettingsPage(container);
  const router = Router();
  const recent = requireRecentSignIn({ returnTo: SETTINGS_PAGE });

  router.get('/settings/security', ...page('manage:settings'), security.show);
  router.post('/settings/security', ...page('manage:settings'), recent, formPost(security.save, security.redraw));
  router.post('/settings/keys/rotate', ...page('manage:settings'), recent, createSigningKeysCard(container).rotate);

  // The OpenID Provider's applications (CONTRACT 14): every change is a step-up action, as on /api/oauth-clients.
  const applications = createApplicationsPage(container);
  const recentForApps = requireRecentSignIn({ returnTo: APPLICATIONS_PAGE });
  router.get('/settings/applications', ...page('manage:settings'), applications.list);
  router.post('/settings/applications', ...page('manage:settings'), recentForApps, applications.create);
  router.get('/settings/applications/:id', ...page('manage:settings'), applications.edit);
  router.post('/settings/applications/:id', ...page('manage:settings'), recentForApps, applications.save);
  router.post('/settings/applications/:id/delete', ...page('manage:settings'), recentForApps, applications.remove);
  router.post('/settings/applications/:id/secret', ...page('manage:settings'), recentForApps, applications.rotateSecret);

  // CONTRACT 15: single sign-on providers; changes are step-up actions like the API's.
  const sso = createSsoSettingsPage(container);
  const recentSso = requireRecentSignIn({ returnTo: SSO_SETTINGS_PAGE });
  router.get('/settings/sso', ...page('manage:settings'), sso.list);
  router.post('/settings/sso', ...page('manage:settings'), recentSso, formPost(sso.add, sso.redrawAdd));
  router.get('/settings/sso/:id', ...page('manage:settings'), sso.edit);
  router.post('/settings/sso/:id', ...page('manage:settings'), recentSso, formPost(sso.save, sso.redrawEdit));
  router.post('/settings/sso/:id/delete', ...page('manage:settings'), recentSso, sso.remove);

  // CONTRACT 16: webhooks; its changes are step-up actions, as in the API.
  const hooks = createWebhooksPage(container);
  const recentForHooks = requireRecentSignIn({ returnTo: WEBHOOKS_PAGE });
  router.get('/settings/webhooks', ...page('manage:settings'), hooks.show);
  router.post('/settings/webhooks', ...page('manage:settings'), recentForHooks, hooks.create);
  // Before /settings/webhooks/:id/… so the literal path is not read as an endpoint id.
  router.post('/settings/webhooks/deliveries/:id/retry', ...page('manage:settings'), recentForHooks, hooks.resend);
  router.post('/settings/webhooks/:id/test', ...page('manage:settings'), recentForHooks, hooks.test);
  return router;
}
