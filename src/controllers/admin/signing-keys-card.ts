import type { RequestHandler } from 'express';
import type { Container } from '../../container';
import { adminAudit } from '../../http/request-context';
import { withNotice } from '../../http/notices';
import type { SigningKeyView } from '../../sessions/signing-keys';

const PAGE = '/admin/settings/security';

/** What views/admin/partials/signing-keys.ejs draws. */
export interface SigningKeysCard {
  algorithm: string;
  /** Whether keys can be rotated here (an asymmetric JWT_ALGORITHM). */
  rotatable: boolean;
  keys: SigningKeyView[];
  jwksPath: string;
}

/** The "Signing keys" card of /admin/settings/security (CONTRACT 11): the keys still verifying, and "Rotate now". */
export function createSigningKeysCard({ signingKeys, activity }: Container) {
  async function view(): Promise<SigningKeysCard> {
    const rotatable = signingKeys.algorithm !== 'HS256';
    return { algorithm: signingKeys.algorithm, rotatable, keys: await signingKeys.list(), jwksPath: '/.well-known/jwks.json' };
  }

  const rotate: RequestHandler = async (req, res) => {
    if (signingKeys.algorithm === 'HS256') return res.redirect(303, withNotice(PAGE, 'signing_key_not_rotated'));
    const key = await signingKeys.rotate();
    const audit = adminAudit(req);
    await activity.record({ action: 'signing_key.rotated', userId: audit.actor.id, email: audit.actor.email, details: { kid: key.kid, algorithm: key.algorithm } }, audit.context);
    res.redirect(303, withNotice(PAGE, 'signing_key_rotated'));
  };

  return { view, rotate };
}
