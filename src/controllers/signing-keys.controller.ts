import type { RequestHandler } from 'express';
import type { Container } from '../container';
import { jsonEtag, notModified } from '../http/conditional-get';
import { adminAudit } from '../http/request-context';
import { rotationDetails } from '../services/security/key-rotation.service';

/** Other services cache the key set this long; a rotation's new key is in it from the start (it signs only after). */
const DISCOVERY_CACHE = 'public, max-age=300';

/** Handlers of CONTRACT 11's signing key endpoints and the two discovery documents. */
export function createSigningKeysController({ signingKeys, keyRotation, activity, oidc }: Container) {
  // The service's keys and the OpenID Provider's (CONTRACT 14): an operator who rotates sees every key that changed.
  const list: RequestHandler = async (_req, res) => {
    res.json({ keys: await keyRotation.list() });
  };

  const rotate: RequestHandler = async (req, res) => {
    const rotation = await keyRotation.rotate();
    const audit = adminAudit(req);
    await activity.record({ action: 'signing_key.rotated', userId: audit.actor.id, email: audit.actor.email, details: rotationDetails(rotation) }, audit.context);
    res.json(rotation);
  };

  // The OpenID Provider's keys (RS256, ES256) beside the service's own: its ID and access tokens verify from this one set (CONTRACT 14).
  const jwks: RequestHandler = async (req, res) => {
    const [service, provider] = await Promise.all([signingKeys.jwks(), oidc.publicJwks()]);
    const body = { keys: [...service.keys, ...provider] };
    const etag = jsonEtag(body);
    res.set({ 'Cache-Control': DISCOVERY_CACHE, ETag: etag });
    if (notModified(req.get('if-none-match'), etag)) {
      res.status(304).end();
      return;
    }
    res.json(body);
  };

  return { list, rotate, jwks };
}
