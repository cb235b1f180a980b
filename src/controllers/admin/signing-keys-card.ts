import type { RequestHandler } from 'express';
import type { Container } from '../../container';
import { adminAudit } from '../../http/request-context';
import { withNotice } from '../../http/notices';
import type { SigningKeyView } from '../../sessions/signing-keys';
import { rotationDetails } from '../../services/security/key-rotation.service';

const PAGE = '/admin/settings/security';

/** What views/admin/partials/signing-keys.ejs draws. */
export interface SigningKeysCard {
  algorithm: string;
  /** Whether the service's own tokens are signed with keys of the JWKS (an asymmetric JWT_ALGORITHM), not JWT_SECRET. */
  asymmetric: boolean;
  keys: SigningKeyView[];
  jwksPath: string;
}

/**
 * The "Signing keys" card of /admin/settings/security (CONTRACT 11 and 14): the service's keys and the OpenID
 * Provider's still verifying, and "Rotate signing keys", offered whatever JWT_ALGORITHM is (the provider's keys
 * rotate under HS256 too).
 */
export function createSigningKeysCard({ signingKeys, keyRotation, activity }: Container) {
  async function view(): Promise<SigningKeysCard> {
    return { algorithm: signingKeys.algorithm, asymmetric: signingKeys.algorithm !== 'HS256', keys: await keyRotation.list(), jwksPath: '/.well-known/jwks.json' };
  }

  const rotate: RequestHandler = async (req, res) => {
    const rotation = await keyRotation.rotate();
    const audit = adminAudit(req);
    await activity.record({ action: 'signing_key.rotated', userId: audit.actor.id, email: audit.actor.email, details: rotationDetails(rotation) }, audit.context);
    res.redirect(303, withNotice(PAGE, rotation.key ? 'signing_key_rotated' : 'provider_keys_rotated'));
  };

  return { view, rotate };
}
