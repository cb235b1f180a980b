import type { Container } from '../container';
import { createApiRouter } from '../http/api-router';
import { createSettingsController } from '../controllers/settings.controller';
import { SETTINGS_ENDPOINTS as doc } from './settings.schemas';

/** CONTRACT 4 security settings, behind `manage:settings`. Environment values win over stored ones. Mounted at /api. */
export function settingsRoutes(container: Container) {
  const { guards } = container;
  const settings = createSettingsController(container);
  const api = createApiRouter(container.docs, '/api');
  const manageSettings = [guards.requirePermission('manage:settings')];

  api.get('/settings/security', doc.getSecurity, ...manageSettings, settings.getSecurity);
  api.put('/settings/security', doc.updateSecurity, ...manageSettings, settings.updateSecurity);
  return api.router;
}
