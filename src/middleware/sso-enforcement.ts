import type { RequestHandler } from 'express';
import { AppError } from '../http/app-error';
import { wantsPage } from '../http/pages';
import type { SsoProviderService } from '../services/sso/sso-providers.service';

export const SSO_REQUIRED = 'Single sign-on required';

/**
 * CONTRACT 15: for an address whose domain a provider enforces, password, code and magic-link sign-in answer 403
 * `{ error, sso: <slug> }` (pages go to the provider). Put after `validated` (the email is normalised by then). The
 * answer depends on the domain alone, never on whether an account has the address: it reveals nothing about one.
 */
export function createSsoEnforcement(providers: Pick<SsoProviderService, 'forEmail'>): RequestHandler {
  return async (req, res, next) => {
    const email = (req.body as { email?: unknown } | undefined)?.email;
    if (typeof email !== 'string' || !email.includes('@')) return next();
    const provider = await providers.forEmail(email);
    if (!provider?.enforce) return next();
    if (wantsPage(req)) return res.redirect(302, `/auth/sso/${provider.slug}`);
    next(new AppError(403, SSO_REQUIRED, { body: { sso: provider.slug } }));
  };
}
