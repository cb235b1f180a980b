import type { Container } from '../container';
import { createApiRouter } from '../http/api-router';
import { createSigningKeysController } from '../controllers/signing-keys.controller';
import { requireRecentSignIn } from '../middleware/step-up';
import { SETTINGS_PAGE } from './settings.routes';
import { SIGNING_KEY_ENDPOINTS as doc } from '../schemas/signing-keys.schemas';

/** CONTRACT 11: listing and rotating the signing keys, behind `manage:settings`; rotating is a step-up action (CONTRACT 9). Mounted at /api. */
export function signingKeysRoutes(container: Container) {
  const keys = createSigningKeysController(container);
  const api = createApiRouter(container.docs, '/api');
  const manageSettings = [container.guards.requirePermission('manage:settings')];

  api.get('/settings/keys', doc.list, ...manageSettings, keys.list);
  api.post('/settings/keys/rotate', doc.rotate, ...manageSettings, requireRecentSignIn({ returnTo: SETTINGS_PAGE }), keys.rotate);
  return api.router;
}

/**
 * CONTRACT 11: what another service reads to verify tokens alone (no secret). Mounted at /.well-known,
 * not at the root: a router mounted at the root is entered by every request the app serves.
 */
export function wellKnownRoutes(container: Container) {
  const keys = createSigningKeysController(container);
  const api = createApiRouter(container.docs, '/.well-known');

  api.get('/jwks.json', doc.jwks, keys.jwks);
  return api.router;
}
