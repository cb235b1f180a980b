import crypto from 'node:crypto';

const VERSION = 'v1';
const TAG_BYTES = 16;

/**
 * Where the authentication tag sits in the stored text. Both were written before this module joined the two
 * sealers and are kept as they are, so stored rows open and instances of either release read each other's:
 * - `tag-last`: `v1.<iv>.<ciphertext+tag>` (TOTP secrets);
 * - `tag-apart`: `v1.<iv>.<tag>.<ciphertext>` (signing keys' private halves).
 */
export type SealLayout = 'tag-last' | 'tag-apart';

export interface SealedBoxOptions {
  /** JWT_SECRET: the box's key is derived from it, never the secret itself. */
  secret: string;
  /** HKDF salt and info: each use gets its own label, so its key is good for nothing else. */
  salt: string;
  info: string;
  layout: SealLayout;
}

/**
 * Seals secrets kept at rest with AES-256-GCM (a fresh 96-bit IV each time) under a key derived from
 * JWT_SECRET by HKDF-SHA256, so a database dump alone reveals none of them. The owner (a user id, a key id)
 * is associated data: a sealed value copied to another row does not open. Parts are base64url.
 */
export function createSealedBox(options: SealedBoxOptions) {
  const key = Buffer.from(crypto.hkdfSync('sha256', Buffer.from(options.secret, 'utf8'), options.salt, options.info, 32));
  const tagApart = options.layout === 'tag-apart';

  function seal(plain: Buffer | string, boundTo: string): string {
    const iv = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv('aes-256-gcm', key, iv).setAAD(Buffer.from(boundTo, 'utf8'));
    const body = Buffer.concat([typeof plain === 'string' ? cipher.update(plain, 'utf8') : cipher.update(plain), cipher.final()]);
    const parts = tagApart ? [iv, cipher.getAuthTag(), body] : [iv, Buffer.concat([body, cipher.getAuthTag()])];
    return [VERSION, ...parts.map((part) => part.toString('base64url'))].join('.');
  }

  /** The plain bytes, or null when the value was not sealed by this box for this owner (or is not a sealed value). */
  function open(sealed: string, boundTo: string): Buffer | null {
    const parts = sealed.split('.');
    if (parts[0] !== VERSION || parts.length !== (tagApart ? 4 : 3) || parts.some((part) => part === '')) return null;
    const iv = Buffer.from(parts[1], 'base64url');
    let tag: Buffer;
    let body: Buffer;
    if (tagApart) {
      tag = Buffer.from(parts[2], 'base64url');
      body = Buffer.from(parts[3], 'base64url');
    } else {
      const raw = Buffer.from(parts[2], 'base64url');
      tag = raw.subarray(raw.length - TAG_BYTES);
      body = raw.subarray(0, raw.length - TAG_BYTES);
    }
    try {
      const decipher = crypto.createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES }).setAAD(Buffer.from(boundTo, 'utf8')).setAuthTag(tag);
      return Buffer.concat([decipher.update(body), decipher.final()]);
    } catch {
      return null;
    }
  }

  return { seal, open };
}
