import type { RequestHandler } from 'express';
import { AppError } from '../http/app-error';
import type { Response } from 'express';
import { continueTo, wantsPage } from '../http/pages';
import type { SsoProviderService } from '../services/sso/sso-providers.service';

export const SSO_REQUIRED = 'Single sign-on required';

/**
 * A form's way to a provider's start (`/auth/sso/<slug>`): a page of ours that moves on by itself, not a 302.
 * Chromium holds every hop of a form submission's redirects to the page's CSP `form-action` ('self'), so a
 * 302 chain from a form post to the identity provider's site would be refused; the navigation this page starts
 * is no form submission, and the start's own 302 to the provider is then allowed.
 */
export function continueToProvider(res: Response, startPath: string): void {
  continueTo(res, startPath, 'Continue to single sign-on');
}

/**
 * CONTRACT 15: for an address whose domain a provider enforces, password, code and magic-link sign-in answer 403
 * `{ error, sso: <slug> }` (pages go on to the provider). Put after `validated` (the email is normalised by then). The
 * answer depends on the domain alone, never on whether an account has the address: it reveals nothing about one.
 */
export function createSsoEnforcement(providers: Pick<SsoProviderService, 'forEmail'>): RequestHandler {
  return async (req, res, next) => {
    const email = (req.body as { email?: unknown } | undefined)?.email;
    if (typeof email !== 'string' || !email.includes('@')) return next();
    const provider = await providers.forEmail(email);
    if (!provider?.enforce) return next();
    if (wantsPage(req)) return continueToProvider(res, `/auth/sso/${provider.slug}`);
    next(new AppError(403, SSO_REQUIRED, { body: { sso: provider.slug } }));
  };
}
