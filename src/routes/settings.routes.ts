import type { Container } from '../container';
import { createApiRouter } from '../http/api-router';
import { createSettingsController } from '../controllers/settings.controller';
import { requireRecentSignIn } from '../middleware/step-up';
import { SETTINGS_ENDPOINTS as doc } from '../schemas/settings.schemas';

/** Where a page asking for a step-up comes back to. */
export const SETTINGS_PAGE = '/admin/settings/security';

/**
 * CONTRACT 4 security settings, behind `manage:settings`. Environment values win over stored ones. Mounted at
 * /api. A change is a step-up action (CONTRACT 9): the settings hold the two-factor policy.
 */
export function settingsRoutes(container: Container) {
  const { guards } = container;
  const settings = createSettingsController(container);
  const api = createApiRouter(container.docs, '/api');
  const manageSettings = [guards.requirePermission('manage:settings')];

  api.get('/settings/security', doc.getSecurity, ...manageSettings, settings.getSecurity);
  api.put('/settings/security', doc.updateSecurity, ...manageSettings, requireRecentSignIn({ returnTo: SETTINGS_PAGE }), settings.updateSecurity);
  return api.router;
}
