import { Router } from 'express';
import type { Container } from '../../container';
import { formPost } from '../../http/pages';
import { createPluginsPages } from '../../controllers/admin/plugins.controller';
import { createOtpPreviewEndpoint } from '../../controllers/admin/otp-preview';
import { createTestEmailAction } from '../../controllers/admin/test-email.controller';
import { requireRecentSignIn } from '../../middleware/step-up';

/** `/admin/plugins*`: the plugin list and each plugin's settings page, behind `manage:plugins` (CONTRACT 6); saving is a step-up action (CONTRACT 9). */
export function pluginsPageRoutes(container: Container): Router {
  const { page } = container.adminPages;
  const plugins = createPluginsPages(container);
  const managePlugins = page('manage:plugins');
  const router = Router();

  router.get('/plugins', ...managePlugins, plugins.list);
  router.post('/plugins/email/test', ...managePlugins, createTestEmailAction(container));
  router.post('/plugins/otp-login/preview', ...managePlugins, createOtpPreviewEndpoint(container));
  router.get('/plugins/:name', ...managePlugins, plugins.show);
  // An old sign-in is sent to the step-up prompt and back to this plugin's page.
  router.post('/plugins/:name', ...managePlugins, requireRecentSignIn({ returnTo: (req) => `/admin/plugins/${encodeURIComponent(String(req.params.name))}` }), formPost(plugins.save, plugins.redraw));
  return router;
}
