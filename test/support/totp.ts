import crypto from 'node:crypto';
import request from 'supertest';
import type { Express } from 'express';

/**
 * RFC 6238 (TOTP) and RFC 4226 (HOTP) written out here with node:crypto, independently of otplib, so the
 * tests check the service against the standard rather than the library against itself.
 */

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 (no padding needed), as authenticator apps read a secret. */
export function base32Decode(text: string): Buffer {
  const clean = text.replace(/[\s=]/g, '').toUpperCase();
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of clean) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error(`not base32: ${char}`);
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** HOTP (RFC 4226 section 5.3): dynamic truncation of an HMAC over the 8-byte counter. */
export function hotp(key: Buffer, counter: number, digits = 6, algorithm: 'sha1' | 'sha256' | 'sha512' = 'sha1'): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = crypto.createHmac(algorithm, key).update(message).digest();
  const offset = mac[mac.length - 1] & 0x0f;
  const binary = ((mac[offset] & 0x7f) << 24) | (mac[offset + 1] << 16) | (mac[offset + 2] << 8) | mac[offset + 3];
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/** TOTP (RFC 6238): HOTP of floor((time - T0) / step). */
export function totp(key: Buffer, epochSeconds: number, options: { digits?: number; step?: number; algorithm?: 'sha1' | 'sha256' | 'sha512' } = {}): string {
  return hotp(key, Math.floor(epochSeconds / (options.step ?? 30)), options.digits ?? 6, options.algorithm ?? 'sha1');
}

/** The code an authenticator app shows for a base32 secret, `offsetSteps` steps from now. */
export function codeFor(secret: string, offsetSteps = 0): string {
  return totp(base32Decode(secret), Math.floor(Date.now() / 1000) + offsetSteps * 30);
}

/** Seconds left in the current 30-second step. */
export function secondsLeftInStep(): number {
  return 30 - (Math.floor(Date.now() / 1000) % 30);
}

/** Waits for a fresh step when the current one ends within `margin` seconds, so a test's codes stay in one step. */
export async function awayFromStepEnd(margin = 4): Promise<void> {
  const left = secondsLeftInStep();
  if (left <= margin) await new Promise((resolve) => setTimeout(resolve, left * 1000 + 200));
}

/** Enrols TOTP through the API with a (recent) Bearer token; answers the secret and the recovery codes. */
export async function enrolTotp(app: Express, token: string): Promise<{ secret: string; recoveryCodes: string[] }> {
  const setup = await request(app).post('/auth/2fa/totp/setup').set('Authorization', `Bearer ${token}`);
  if (setup.status !== 200) throw new Error(`setup answered ${setup.status} ${JSON.stringify(setup.body)}`);
  const secret = setup.body.secret as string;
  const confirm = await request(app).post('/auth/2fa/totp/confirm').set('Authorization', `Bearer ${token}`).send({ code: codeFor(secret) });
  if (confirm.status !== 200) throw new Error(`confirm answered ${confirm.status} ${JSON.stringify(confirm.body)}`);
  return { secret, recoveryCodes: confirm.body.recoveryCodes as string[] };
}
