import type { Container } from '../container';
import { createApiRouter, validated } from '../http/api-router';
import { noStoreAll } from '../http/no-store';
import { STRATEGY } from '../sign-in/passport';
import { createMagicLinkController } from '../controllers/magic-link.controller';
import { MAGIC_LINK_ENDPOINTS as doc } from '../schemas/magic-link.schemas';


/**
 * CONTRACT 4 magic links, mounted at /auth. The verify line is the usual sign-in line, with the session
 * store checked first (a link is never spent while no session can be made) and the server session
 * added to the shared session step.
 */
export function magicLinkRoutes(container: Container) {
  const { limits, authenticate, issueSession, sessions } = container;
  const magicLink = createMagicLinkController(container);
  const api = createApiRouter(container.docs, '/auth');
  // Links and the sessions they start are credentials.
  api.router.use(['/sign-in/magic-link', '/magic-link'], noStoreAll);

  api.post('/sign-in/magic-link', doc.request, limits.magicLink, validated, container.ssoEnforcement, magicLink.request);
  api.get(
    '/magic-link/verify',
    doc.verify,
    validated,
    sessions.ready,
    authenticate(STRATEGY.magicLink),
    issueSession('auth.magic_link_used', { redirect: true, extend: 'server-session' }),
  );

  api.router.use(magicLink.formErrorPages);
  api.router.use('/magic-link/verify', magicLink.verifyFailed);
  return api.router;
}
