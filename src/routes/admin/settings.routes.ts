import { Router } from 'express';
import type { Container } from '../../container';
import { formPost } from '../../http/pages';
import { createSecuritySettingsPage } from '../../controllers/admin/security-settings.controller';
import { createSigningKeysCard } from '../../controllers/admin/signing-keys-card';

/** `/admin/settings/*`: the security settings page, behind `manage:settings` (CONTRACT 6). */
export function settingsPageRoutes(container: Container): Router {
  const { page } = container.adminPages;
  const security = createSecuritySettingsPage(container);
  const router = Router();

  router.get('/settings/security', ...page('manage:settings'), security.show);
  router.post('/settings/security', ...page('manage:settings'), formPost(security.save, security.redraw));
  router.post('/settings/keys/rotate', ...page('manage:settings'), createSigningKeysCard(container).rotate);
  return router;
}
