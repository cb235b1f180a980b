import crypto from 'node:crypto';
import { isoBase64URL, isoCBOR } from '@simplewebauthn/server/helpers';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';

/** One credential the software authenticator holds: an ES256 key, its id, the user handle, the counter. */
export interface SoftCredential {
  id: string;
  rpId: string;
  userHandle: string;
  privateKey: crypto.KeyObject;
  publicKey: crypto.KeyObject;
  counter: number;
}

/** What a test may bend in a ceremony: the origin the "browser" reports, the RP ID the authenticator hashes, the flags, the counter. */
export interface CeremonyTweaks {
  origin?: string;
  rpId?: string;
  userVerified?: boolean;
  /** The signature counter to report (default: the credential's next value, or 0 for a counter-less authenticator). */
  counter?: number;
  /** Sign with this credential whatever the options allow (a stolen or foreign credential). */
  credential?: SoftCredential;
  /** The user handle to send (default: the credential's). */
  userHandle?: string | null;
}

const FLAGS = { up: 0x01, uv: 0x04, at: 0x40 } as const;
const sha256 = (data: Uint8Array | string) => new Uint8Array(crypto.createHash('sha256').update(data).digest());
const u32 = (value: number) => {
  const bytes = new Uint8Array(4);
  new DataView(bytes.buffer).setUint32(0, value);
  return bytes;
};

function coseKey(publicKey: crypto.KeyObject): Uint8Array {
  const jwk = publicKey.export({ format: 'jwk' });
  const key = new Map<number, number | Uint8Array>([
    [1, 2], // kty: EC2
    [3, -7], // alg: ES256
    [-1, 1], // crv: P-256
    [-2, new Uint8Array(Buffer.from(jwk.x as string, 'base64url'))],
    [-3, new Uint8Array(Buffer.from(jwk.y as string, 'base64url'))],
  ]);
  return isoCBOR.encode(key);
}

/**
 * A tiny WebAuthn authenticator in software (a "none" attestation, ES256 keys from node:crypto, CBOR from
 * @simplewebauthn's helpers) with the browser's part (clientDataJSON), so JSON API tests drive real ceremonies
 * without a browser: every byte the server checks is made the way an authenticator makes it.
 */
export class SoftAuthenticator {
  readonly credentials: SoftCredential[] = [];

  /** `counting`: keep a signature counter (false: always 0, as many platform authenticators do). */
  constructor(
    readonly origin: string,
    private readonly counting = true,
  ) {}

  private clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string, tweaks: CeremonyTweaks): string {
    return isoBase64URL.fromUTF8String(JSON.stringify({ type, challenge, origin: tweaks.origin ?? this.origin, crossOrigin: false }));
  }

  /** navigator.credentials.create(): a new resident credential for the options' RP and user. */
  create(options: PublicKeyCredentialCreationOptionsJSON, tweaks: CeremonyTweaks = {}): RegistrationResponseJSON {
    // `tweaks.credential`: the same id and key again (an authenticator that ignores excludeCredentials, or a forger).
    const { privateKey, publicKey } = tweaks.credential ?? crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const idBytes = tweaks.credential ? isoBase64URL.toBuffer(tweaks.credential.id) : new Uint8Array(crypto.randomBytes(32));
    const credential: SoftCredential = {
      id: isoBase64URL.fromBuffer(idBytes),
      rpId: tweaks.rpId ?? options.rp.id ?? '',
      userHandle: options.user.id,
      privateKey,
      publicKey,
      counter: 0,
    };
    const flags = FLAGS.up | FLAGS.at | (tweaks.userVerified === false ? 0 : FLAGS.uv);
    const idLength = new Uint8Array([idBytes.length >> 8, idBytes.length & 255]);
    const authData = isoConcat(sha256(credential.rpId), new Uint8Array([flags]), u32(0), new Uint8Array(16), idLength, idBytes, coseKey(publicKey));
    const attestationObject = isoCBOR.encode(new Map<string, unknown>([['fmt', 'none'], ['attStmt', new Map()], ['authData', authData]]) as never);
    this.credentials.push(credential);
    return {
      id: credential.id,
      rawId: credential.id,
      type: 'public-key',
      response: {
        clientDataJSON: this.clientData('webauthn.create', options.challenge, tweaks),
        attestationObject: isoBase64URL.fromBuffer(attestationObject),
        transports: ['internal'],
      },
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
    };
  }

  /** navigator.credentials.get(): an assertion by the first credential the options allow (any of ours when discoverable). */
  get(options: PublicKeyCredentialRequestOptionsJSON, tweaks: CeremonyTweaks = {}): AuthenticationResponseJSON {
    const allowed = options.allowCredentials?.map((descriptor) => descriptor.id);
    const credential = tweaks.credential ?? this.credentials.find((candidate) => !allowed || allowed.includes(candidate.id));
    if (!credential) throw new Error('no credential for these options');
    if (tweaks.counter === undefined && this.counting) credential.counter += 1;
    const counter = tweaks.counter ?? (this.counting ? credential.counter : 0);
    const flags = FLAGS.up | (tweaks.userVerified === false ? 0 : FLAGS.uv);
    const authData = isoConcat(sha256(tweaks.rpId ?? credential.rpId), new Uint8Array([flags]), u32(counter));
    const clientDataJSON = this.clientData('webauthn.get', options.challenge, tweaks);
    const signed = isoConcat(authData, sha256(isoBase64URL.toBuffer(clientDataJSON)));
    const signature = crypto.sign('sha256', Buffer.from(signed), credential.privateKey);
    const userHandle = tweaks.userHandle === undefined ? credential.userHandle : tweaks.userHandle;
    return {
      id: credential.id,
      rawId: credential.id,
      type: 'public-key',
      response: {
        clientDataJSON,
        authenticatorData: isoBase64URL.fromBuffer(authData),
        signature: isoBase64URL.fromBuffer(new Uint8Array(signature)),
        ...(userHandle === null ? {} : { userHandle }),
      },
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
    };
  }
}

function isoConcat(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.concat(parts));
}
