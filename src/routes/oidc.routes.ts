import { Router, type RequestHandler } from 'express';
import type { Container } from '../container';
import type { Config } from '../config/config';
import type { OidcProvider } from '../services/oidc-provider/provider';
import { createOidcInteractionController } from '../controllers/oidc-interaction.controller';
import { noStoreAll } from '../http/no-store';

/** Whether a path is the provider's to answer: discovery and /oidc/*, but for the interactions (our pages). */
function providerPath(path: string): boolean {
  return path === '/.well-known/openid-configuration' || (path.startsWith('/oidc/') && !path.startsWith('/oidc/interaction/'));
}

/**
 * Mounts oidc-provider (CONTRACT 14) at the root for its own paths, before the app's body parsing and CSRF:
 * it parses its form posts itself and authenticates clients, not cookies. The forwarded headers it reads are set
 * from BASE_URL, so the endpoints it names are the public ones, never the request's Host (CONTRACT 1).
 */
export function oidcMount(oidc: OidcProvider, config: Pick<Config, 'baseUrl'>): RequestHandler {
  const base = new URL(config.baseUrl);
  return async (req, res, next) => {
    if (!providerPath(req.path)) return next();
    // The current build's handler at each request: a key rotation rebuilds the provider (provider.ts).
    const handle = await oidc.handler();
    req.headers['x-forwarded-proto'] = base.protocol.slice(0, -1);
    req.headers['x-forwarded-host'] = base.host;
    req.headers['x-forwarded-for'] = req.ip ?? '';
    // Discovery is cached like the JWKS it names (CONTRACT 11).
    if (req.path === '/.well-known/openid-configuration') res.setHeader('Cache-Control', 'public, max-age=300');
    handle(req, res);
  };
}

/** The interaction pages (sign-in hand-off, consent). Mounted at /oidc/interaction. */
export function oidcInteractionRoutes(container: Container) {
  const interaction = createOidcInteractionController(container);
  const router = Router();
  router.use(noStoreAll);
  router.get('/:uid', interaction.show);
  router.post('/:uid/confirm', interaction.confirm);
  return router;
}
