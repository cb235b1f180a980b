import type { RequestHandler } from 'express';
import type { Container } from '../container';
import { AppError } from '../http/app-error';
import { jsonEtag, notModified } from '../http/conditional-get';
import { adminAudit } from '../http/request-context';
import { SigningKeyError } from '../sessions/signing-keys';

/** Other services cache the key set this long; a rotation's new key is in it from the start (it signs only after). */
const DISCOVERY_CACHE = 'public, max-age=300';

/** Handlers of CONTRACT 11's signing key endpoints and the two discovery documents. */
export function createSigningKeysController({ signingKeys, activity, oidc }: Container) {
  const list: RequestHandler = async (_req, res) => {
    res.json({ keys: await signingKeys.list() });
  };

  const rotate: RequestHandler = async (req, res) => {
    const key = await signingKeys.rotate().catch((err: unknown) => {
      throw err instanceof SigningKeyError ? AppError.conflict(err.message) : err;
    });
    const audit = adminAudit(req);
    await activity.record({ action: 'signing_key.rotated', userId: audit.actor.id, email: audit.actor.email, details: { kid: key.kid, algorithm: key.algorithm } }, audit.context);
    res.json({ key });
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
