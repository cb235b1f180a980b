import type { Container } from '../container';
import { createApiRouter, validated } from '../http/api-router';
import { noStoreAll } from '../http/no-store';
import { STRATEGY } from '../sign-in/passport';
import { requireRecentSignIn } from '../middleware/step-up';
import { createSsoController } from '../controllers/sso.controller';
import { SSO_ENDPOINTS as doc } from '../schemas/sso.schemas';
import { SSO_SETTINGS_PAGE } from '../controllers/admin/sso-settings.controller';

/**
 * CONTRACT 15: single sign-on through an organisation's identity provider. Mounted at /auth/sso. The callback is
 * a sign-in line (limit → authenticate → issueSession, method `sso`), its cookies SameSite=Lax: the browser
 * arrives from the provider's site.
 */
export function ssoRoutes(container: Container) {
  const { limits, authenticate, issueSession } = container;
  const sso = createSsoController(container);
  const api = createApiRouter(container.docs, '/auth/sso');
  // Every answer here starts or ends a sign-in.
  api.router.use(noStoreAll);

  api.post('/', doc.start, limits.oauth, validated, sso.startByEmail);
  // OIDC providers are started by the controller; a SAML provider's AuthnRequest is the SAML strategy's redirect.
  api.get('/:slug', doc.startSlug, limits.oauth, validated, sso.start, authenticate(STRATEGY.ssoSaml));
  api.get('/:slug/callback', doc.callback, limits.oauth, validated, authenticate(STRATEGY.ssoOidc), issueSession('sso.sign_in', { sameSite: 'lax', redirect: true }));
  // The IdP posts the Response from its own site (HTTP-POST binding): the request id it answers, not a cookie, binds it.
  api.post('/:slug/acs', doc.acs, limits.oauth, validated, authenticate(STRATEGY.ssoSaml), issueSession('sso.sign_in', { sameSite: 'lax', redirect: true }));
  // XML, not a JSON route: outside the OpenAPI document, like the HTML pages.
  api.router.get('/:slug/metadata', sso.metadata);
  return api.router;
}

/** CONTRACT 15: the providers, behind `manage:settings`; changes are step-up actions (CONTRACT 9), reads show no secret. Mounted at /api. */
export function ssoProvidersRoutes(container: Container) {
  const sso = createSsoController(container);
  const api = createApiRouter(container.docs, '/api');
  const manageSettings = [container.guards.requirePermission('manage:settings')];
  const changeSso = [...manageSettings, requireRecentSignIn({ returnTo: SSO_SETTINGS_PAGE })];

  api.get('/sso/providers', doc.list, ...manageSettings, sso.list);
  api.post('/sso/providers', doc.create, ...changeSso, validated, sso.create);
  api.get('/sso/providers/:id', doc.get, ...manageSettings, validated, sso.get);
  api.patch('/sso/providers/:id', doc.update, ...changeSso, validated, sso.update);
  api.delete('/sso/providers/:id', doc.remove, ...changeSso, validated, sso.remove);
  return api.router;
}
