import crypto from 'node:crypto';
import { subKey } from '../credentials/sub-keys';

/** The cookie a browser keeps after it signed in with a password (issue 51): only sent to the sign-in routes. */
export const DEVICE_COOKIE = 'device';
export const DEVICE_COOKIE_PATH = '/auth';
/** A year: the browser stays known for as long as people keep a browser profile, and every sign-in renews it. */
export const DEVICE_COOKIE_MAX_AGE_SECONDS = 365 * 86_400;

const NONCE_BYTES = 16;
const FORMAT = /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;

/**
 * Device cookies as OWASP's "Slow Down Online Guessing Attacks with Device Cookies" describes them: after a right
 * password the browser gets `<nonce>.<HMAC(email, nonce)>`; a later password sign-in for the same email that
 * presents it is from a known device. Known devices get their own failure budget (keyed by the nonce, so an
 * attacker's failures never lock them out) and the priority lane of the hashing queue. The cookie grants
 * nothing by itself: it is not a credential (it signs no one in and is not in the credential registry), only a
 * hint where to queue a guess that is then judged as any other. Bound to the normalized email, so it is checked
 * before any database read, and means nothing for another account.
 */
export function createDeviceCookies(deps: { secret: string }) {
  const key = subKey(deps.secret, 'deviceCookies');
  const macOf = (email: string, nonce: string) => crypto.createHmac('sha256', key).update(`${email}\0${nonce}`).digest('base64url');

  /** A fresh cookie value for a browser that just proved the password of `email` (normalized). */
  function issue(email: string): string {
    const nonce = crypto.randomBytes(NONCE_BYTES).toString('base64url');
    return `${nonce}.${macOf(email, nonce)}`;
  }

  /** The device's id (its nonce) when `value` was issued for `email` (normalized); null for anything else. */
  function deviceOf(value: unknown, email: string): string | null {
    if (typeof value !== 'string') return null;
    const match = FORMAT.exec(value);
    if (!match) return null;
    const expected = Buffer.from(macOf(email, match[1]));
    const given = Buffer.from(match[2]);
    return given.length === expected.length && crypto.timingSafeEqual(given, expected) ? match[1] : null;
  }

  return { issue, deviceOf };
}

export type DeviceCookies = ReturnType<typeof createDeviceCookies>;
