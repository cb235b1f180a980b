import type { Request } from 'express';
import { Strategy } from 'passport-strategy';
import type { MagicLinkService } from '../services/sign-in-methods/magic-link.service';
import { MAGIC_LINK_MESSAGES } from '../services/sign-in-methods/magic-link.service';
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
    const refusal = (reason: string, email: string | null, userId: string | null): SignInFailure => ({
      message: MAGIC_LINK_MESSAGES.invalid,
      audit: { action: 'auth.login_failed', userId, email, details: { method: 'magic_link', reason } },
    });
    this.magicLinks.consume(token).then(
      (result) => {
        if (result.ok) {
          const { user, claim } = result;
          const info: SignInInfo = {
            method: 'magic_link',
            details: result.created ? { created: true, role: user.role } : {},
            redirect: callbackURL ?? null,
            spend: async () => ((await claim()) ? null : refusal('already_used', user.email, user.id)),
          };
          return this.success(user, info);
        }
        return this.fail(refusal(result.reason, result.email, result.userId), 401);
      },
      (err: unknown) => this.error(err as Error),
    );
  }
}
