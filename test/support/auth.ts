import crypto from 'node:crypto';
import type { Express } from 'express';
import type { Response } from 'supertest';
import { buildApp as appWith, ctx, uniqueEmail } from './context';
import { createPasswordService } from '../../src/credentials/password.service';
import type { Role, User } from '../../src/models';

export const PASSWORD = 'correct horse battery';

/** Parsed Set-Cookie headers by cookie name: value and lower-cased attributes. */
export interface SetCookie {
  value: string;
  attributes: Record<string, string | true>;
}

export function setCookies(res: Response): Record<string, SetCookie> {
  const raw = res.headers['set-cookie'] as unknown as string[] | undefined;
  const cookies: Record<string, SetCookie> = {};
  for (const header of raw ?? []) {
    const [pair, ...attrs] = header.split(';').map((part) => part.trim());
    const eq = pair.indexOf('=');
    const attributes: Record<string, string | true> = {};
    for (const attr of attrs) {
      const i = attr.indexOf('=');
      if (i < 0) attributes[attr.toLowerCase()] = true;
      else attributes[attr.slice(0, i).toLowerCase()] = attr.slice(i + 1);
    }
    cookies[pair.slice(0, eq)] = { value: decodeURIComponent(pair.slice(eq + 1)), attributes };
  }
  return cookies;
}

/** The Cookie header a browser would send back after this response. */
export function cookieHeader(res: Response): string {
  return Object.entries(setCookies(res))
    .map(([name, cookie]) => `${name}=${encodeURIComponent(cookie.value)}`)
    .join('; ');
}

const hasher = () => createPasswordService({ iterations: ctx().config.passwordIterations });

/** A user row made directly (no rate limits involved), with a profile row, a PBKDF2 password and a verified address. */
export async function makeUser(
  options: { email?: string; password?: string | null; passwordHash?: string | null; role?: Role; active?: boolean; emailVerified?: boolean; selfRegistered?: boolean } = {},
): Promise<User> {
  const { models } = ctx();
  const email = options.email ?? uniqueEmail();
  const passwordHash =
    options.passwordHash !== undefined ? options.passwordHash : options.password === null ? null : await hasher().hash(options.password ?? PASSWORD);
  const user = await models.User.create({
    id: crypto.randomUUID(),
    email,
    username: `u_${crypto.randomBytes(6).toString('hex')}`,
    firstName: 'Test',
    lastName: 'User',
    role: options.role ?? 'viewer',
    active: options.active ?? true,
    passwordHash,
    // An established account unless a test says otherwise (CONTRACT 18: an unverified self-registered one is squattable).
    emailVerifiedAt: options.emailVerified === false ? null : new Date(),
    // With emailVerified false, a self-registered account unless told otherwise: the squatter rule's case.
    selfRegistered: options.selfRegistered ?? options.emailVerified === false,
  });
  await models.UserProfile.create({ userId: user.id, data: {} });
  return user;
}

// The shared helpers, under the names these tests use.
export { tokenFor } from './users';
export { buildApp as appWith } from './context';

/** An app that trusts X-Forwarded-For, so each simulated client has its own rate-limit bucket. */
export function proxiedApp(env: Record<string, string | undefined> = {}): Express {
  return appWith({ env: { TRUST_PROXY: 'true', ...env } });
}

let clientCounter = 0;
/** A fresh client IP for proxiedApp requests. */
export function nextClientIp(): string {
  clientCounter += 1;
  return `10.${(clientCounter >> 16) & 255}.${(clientCounter >> 8) & 255}.${clientCounter & 255}`;
}

/** Encodes a JWT part. */
export function b64url(value: unknown): string {
  return Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
}

/** Decodes a JWT's payload without checking it. */
export function payloadOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')) as Record<string, unknown>;
}

/** HS256-signs arbitrary header + payload with a secret (to forge tokens in attack tests). */
export function signRaw(header: Record<string, unknown>, payload: Record<string, unknown>, secret: string, algorithm = 'sha256'): string {
  const head = `${b64url(header)}.${b64url(payload)}`;
  const signature = crypto.createHmac(algorithm, secret).update(head).digest('base64url');
  return `${head}.${signature}`;
}
