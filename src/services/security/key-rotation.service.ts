import type { SigningKeys, SigningKeyView } from '../../sessions/signing-keys';
import type { ProviderKeys } from '../oidc-provider/provider-keys';

/** What a rotation says it did, one sentence for each case (the API's `message`, the CLI's line). */
export const KEY_ROTATION_MESSAGES = {
  both: 'New signing keys for the service’s tokens and the OpenID Provider’s ID and access tokens: every instance signs with them now.',
  providerOnly: 'New signing keys for the OpenID Provider’s ID and access tokens: every instance signs with them now. The service’s own tokens are signed with JWT_SECRET (JWT_ALGORITHM=HS256), which rotation does not change.',
  concurrent: 'Another rotation of the OpenID Provider’s keys committed at the same moment: its keys sign now.',
} as const;

/** A rotation's outcome: the service's new key (none under HS256), the provider's signing keys now, and what happened. */
export interface KeyRotation {
  key: SigningKeyView | null;
  providerKeys: SigningKeyView[];
  message: string;
}

/**
 * CONTRACT 11 and 14: one rotation for every key that signs, whatever JWT_ALGORITHM is. The service's own key
 * rotates under an asymmetric algorithm (under HS256 its tokens are signed with JWT_SECRET's sub-key); the OpenID
 * Provider's RS256 and ES256 keys rotate always. Each set is cached by its own store version, so every instance
 * signs with the new keys at once.
 */
export function createKeyRotation(deps: { signingKeys: Pick<SigningKeys, 'algorithm' | 'rotate' | 'list'>; providerKeys: Pick<ProviderKeys, 'current' | 'rotate'> }) {
  const { signingKeys, providerKeys } = deps;

  async function rotate(): Promise<KeyRotation> {
    const key = signingKeys.algorithm === 'HS256' ? null : await signingKeys.rotate();
    const provider = await providerKeys.rotate();
    const signing = provider.set.views.filter((view) => view.signing);
    const message = [key ? KEY_ROTATION_MESSAGES.both : KEY_ROTATION_MESSAGES.providerOnly, ...(provider.rotated ? [] : [KEY_ROTATION_MESSAGES.concurrent])].join(' ');
    return { key, providerKeys: signing, message };
  }

  /** Every key still verifying, the service's first: each says whether it signs, what it signs, and when it retires. */
  async function list(): Promise<SigningKeyView[]> {
    const [service, provider] = await Promise.all([signingKeys.list(), providerKeys.current()]);
    return [...service, ...provider.views];
  }

  return { rotate, list };
}

/** The activity record's details of a rotation (`signing_key.rotated`). */
export function rotationDetails(rotation: KeyRotation): Record<string, unknown> {
  return { kid: rotation.key?.kid ?? null, algorithm: rotation.key?.algorithm ?? null, providerKids: rotation.providerKeys.map((key) => key.kid) };
}

export type KeyRotationService = ReturnType<typeof createKeyRotation>;
