import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Container } from '../container';
import { AppError } from '../http/app-error';
import { safeRedirect } from '../http/safe-redirect';
import { formErrors, wantsPage, type FormRedraw } from '../http/pages';
import { withNotice } from '../http/notices';
import type { MagicLinkRequestBody } from '../schemas/magic-link.schemas';
import { createAuthController } from './auth.controller';

export const MAGIC_LINK_SENT = 'Check your email: if this address can sign in here, a sign-in link is on its way. It is valid for 15 minutes.';

/** Handlers of the magic-link routes besides sign-in itself (the strategy and the session step do that). */
export function createMagicLinkController(container: Container) {
  const { magicLinks } = container;
  const { renderLogin } = createAuthController(container);

  const request: RequestHandler = async (req, res) => {
    const body = req.body as MagicLinkRequestBody;
    await magicLinks.requestLink(body.email, safeRedirect(body.callbackURL));
    if (!wantsPage(req)) {
      res.json({ status: true });
      return;
    }
    await renderLogin(res, 200, { message: MAGIC_LINK_SENT, redirect: safeRedirect(body.callbackURL) });
  };

  // A refused form post comes back to the sign-in page with the error at the link form's field.
  const redrawRequest: FormRedraw = async (req, res, failure) => {
    const body = req.body as Record<string, unknown>;
    const magicLink = { values: { email: typeof body.email === 'string' ? body.email : '' }, errors: failure.errors, error: failure.error };
    await renderLogin(res, failure.status, { magicLink, redirect: safeRedirect(body.callbackURL) });
  };

  /**
   * A link that cannot sign in (bad, used, expired, revoked, malformed) ends on the sign-in page with
   * one message (CONTRACT 4): it arrives by a click, never by fetch. Outages stay 5xx pages.
   */
  const verifyFailed: ErrorRequestHandler = (err, req, res, next) => {
    if (!(err instanceof AppError) || err.status >= 500 || req.method !== 'GET') return next(err);
    res.redirect(302, withNotice('/auth/login', 'magic_link_invalid'));
  };

  return { request, formErrorPages: formErrors({ '/sign-in/magic-link': redrawRequest }), verifyFailed };
}
