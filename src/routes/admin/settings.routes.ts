import { Router } from 'express';
import type { Container } from '../../container';
import { formPost } from '../../http/pages';
import { createSecuritySettingsPage } from '../../controllers/admin/security-settings.controller';
import { createSigningKeysCard } from '../../controllers/admin/signing-keys-card';
import { requireRecentSignIn } from '../../middleware/step-up';
import { SETTINGS_PAGE } from '../settings.routes';

/** `/admin/settings/*`: the security settings page, behind `manage:settings` (CONTRACT 6); its changes are step-up actions (CONTRACT 9). */
export function settingsPageRoutes(container: Container): Router {
  const { page } = container.adminPages;
  const security = createSecuritySettingsPage(container);
  const router = Router();
  const recent = requireRecentSignIn({ returnTo: SETTINGS_PAGE });

  router.get('/settings/security', ...page('manage:settings'), security.show);
  router.post('/settings/security', ...page('manage:settings'), recent, formPost(security.save, security.redraw));
  router.post('/settings/keys/rotate', ...page('manage:settings'), recent, createSigningKeysCard(container).rotate);
  return router;
}
