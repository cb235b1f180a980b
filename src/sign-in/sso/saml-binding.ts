import crypto from 'node:crypto';
import type { CookieOptions, Request, Response } from 'express';
import type { KeyValueStore } from '../../store';

const RANDOM_BYTES = 32;

const sha256 = (value: string) => crypto.createHash('sha256').update(value).digest();

/**
 * Binds a SAML flow to the browser that started it (CONTRACT 15: "a request this browser started"), so a
 * response the attacker obtained for their own IdP account cannot be posted from a victim's browser (login
 * CSRF). A per-flow cookie carries a random value; the store keeps its hash under the AuthnRequest's ID.
 *
 * The ACS is reached by a cross-site POST from the IdP, which browsers send with SameSite=None cookies only,
 * and SameSite=None requires Secure. Under an https BASE_URL the cookie is also `__Host-` (Path=/, no
 * Domain), which no sibling subdomain can plant. Browsers keep Secure cookies from http://localhost too, so
 * local development works; any other plain-http BASE_URL cannot finish a SAML sign-in.
 */
export class SamlBrowserBinding {
  private readonly hostOnly: boolean;

  constructor(
    private readonly store: KeyValueStore,
    private readonly slug: string,
    baseUrl: string,
    private readonly ttlSeconds: number,
  ) {
    this.hostOnly = new URL(baseUrl).protocol === 'https:';
  }

  /** One cookie per flow, named after its request: two tabs never void each other's flows. */
  private cookieName(requestId: string): string {
    const flow = sha256(requestId).toString('base64url').slice(0, 16);
    return `${this.hostOnly ? '__Host-' : ''}sso_saml_${flow}`;
  }

  private key(requestId: string): string {
    return `sso:saml:binding:${this.slug}:${requestId}`;
  }

  private attributes(): CookieOptions {
    return { httpOnly: true, secure: true, sameSite: 'none', path: this.hostOnly ? '/' : '/auth/sso' };
  }

  /** Remembers the flow and gives the browser its half, before the redirect to the IdP. */
  async bind(res: Response, requestId: string): Promise<void> {
    const value = crypto.randomBytes(RANDOM_BYTES).toString('base64url');
    await this.store.set(this.key(requestId), sha256(value).toString('base64url'), this.ttlSeconds);
    res.cookie(this.cookieName(requestId), value, { ...this.attributes(), maxAge: this.ttlSeconds * 1000 });
  }

  /**
   * True when this browser started the request. The record is taken (read and deleted in one step), so of
   * two posts answering one request at most one gets past here: the single use node-saml's read-then-remove
   * of the request id cannot promise under a race.
   */
  async consume(req: Request, res: Response, requestId: string): Promise<boolean> {
    const expected = await this.store.take(this.key(requestId));
    const name = this.cookieName(requestId);
    const cookie = (req.cookies as Record<string, unknown> | undefined)?.[name];
    res.clearCookie(name, this.attributes());
    if (expected === null || typeof cookie !== 'string') return false;
    return crypto.timingSafeEqual(sha256(cookie), Buffer.from(expected, 'base64url'));
  }
}
