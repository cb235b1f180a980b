import type { Request } from 'express';
import { Strategy } from 'passport-strategy';
import type { MagicLinkService } from '../services/magic-link.service';
import { MAGIC_LINK_MESSAGES } from '../services/magic-link.service';
import type { SignInFailure, SignInInfo } from './sign-in-result';

/** The validated query of GET /auth/magic-link/verify. */
export interface MagicLinkQuery {
  token: string;
  callbackURL?: string;
}

/**
 * Sign-in by an emailed link, in the shape of passport-local: read the token from the validated query,
 * let the magic-link service use it, then `success` (carrying the link's callbackURL for the session
 * step, which checks it again), `fail` (one answer for every refusal; the reason goes only to the
 * activity row) or `error`.
 */
export class MagicLinkStrategy extends Strategy {
  readonly name = 'magic-link';

  constructor(private readonly magicLinks: Pick<MagicLinkService, 'consume'>) {
    super();
  }

  override authenticate(req: Request): void {
    const { token, callbackURL } = req.query as unknown as MagicLinkQuery;
    this.magicLinks.consume(token).then(
      (result) => {
        if (result.ok) {
          const info: SignInInfo = {
            method: 'magic_link',
            details: result.created ? { created: true, role: result.user.role } : {},
            redirect: callbackURL ?? null,
          };
          return this.success(result.user, info);
        }
        const failure: SignInFailure = {
          message: MAGIC_LINK_MESSAGES.invalid,
          audit: { action: 'auth.login_failed', userId: result.userId, email: result.email, details: { method: 'magic_link', reason: result.reason } },
        };
        return this.fail(failure, 401);
      },
      (err: unknown) => this.error(err as Error),
    );
  }
}
