import { Router } from 'express';
import type { Container } from '../../container';
import { formPost } from '../../http/pages';
import { createSecuritySettingsPage } from '../../controllers/admin/security-settings.controller';
import { createSigningKeysCard } from '../../controllers/admin/signing-keys-card';
import { requireRecentSignIn } from '../../middleware/step-up';
import { SETTINGS_PAGE } from '../settings.routes';
import { createWebhooksPage } from '../../controllers/admin/webhooks-page.controller';
import { WEBHOOKS_PAGE } from '../webhooks.routes';

/** `/admin/settings/*`: the security settings page, behind `manage:settings` (CONTRACT 6); its changes are step-up actions (CONTRACT 9). */
export function settingsPageRoutes(container: Container): Router {
  const { page } = container.adminPages;
  const security = createSecuritySettingsPage(container);
  const router = Router();
  const recent = requireRecentSignIn({ returnTo: SETTINGS_PAGE });

  router.get('/settings/security', ...page('manage:settings'), security.show);
  router.post('/settings/security', ...page('manage:settings'), recent, formPost(security.save, security.redraw));
  router.post('/settings/keys/rotate', ...page('manage:settings'), recent, createSigningKeysCard(container).rotate);
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
