import type { Request, RequestHandler } from 'express';
import type { Container } from '../container';
import { requestContext } from '../http/request-context';
import { formErrors, renderForm, wantsPage, type FormRedraw } from '../http/pages';
import { noticeOf, withNotice } from '../http/notices';
import { noStore } from '../http/no-store';
import { RESET_MESSAGES } from '../services/sign-in-methods/password-reset.service';
import type { ResetBody, ResetRequestBody } from '../schemas/password-reset.schemas';

const FORGOT = { view: 'auth/forgot-password', title: 'Forgot your password?' } as const;
const RESET = { view: 'auth/reset-password', title: 'Choose a new password' } as const;

function tokenOf(req: Request): string {
  const token = (req.query as Record<string, unknown>).token ?? (req.body as Record<string, unknown> | undefined)?.token;
  return typeof token === 'string' ? token.slice(0, 512) : '';
}

/** Handlers of CONTRACT 4's password reset: the forgot-password page, the request, the reset page and the reset. */
export function createPasswordResetController({ passwordReset }: Container) {
  const forgotPage: RequestHandler = (req, res) =>
    renderForm(res, FORGOT.view, 200, { title: FORGOT.title, message: noticeOf(req.query).message });

  // A page post is redirected (303) to the confirmation, so reloading it does not post again and spend one
  // of the few requests the limit allows.
  const requestReset: RequestHandler = async (req, res) => {
    await passwordReset.requestReset((req.body as ResetRequestBody).email, requestContext(req));
    if (wantsPage(req)) res.redirect(303, withNotice('/auth/forgot-password', 'reset_requested'));
    else res.json({ message: RESET_MESSAGES.requested });
  };

  // The page carries a one-time token (in the URL and the form): never cached. 200 even for a dead
  // link: the page itself explains it and offers a new one.
  const resetPage: RequestHandler = async (req, res) => {
    const token = tokenOf(req);
    const usable = token !== '' && (await passwordReset.isUsable(token));
    noStore(res);
    renderForm(res, RESET.view, 200, { title: RESET.title, token, showForm: usable, error: usable ? null : RESET_MESSAGES.invalid });
  };

  const reset: RequestHandler = async (req, res) => {
    const { token, password } = req.body as ResetBody;
    await passwordReset.resetPassword(token, password, requestContext(req));
    noStore(res);
    if (wantsPage(req)) res.redirect(302, withNotice('/auth/login', 'password_reset'));
    else res.json({ message: RESET_MESSAGES.done });
  };

  const redrawForgot: FormRedraw = (req, res, failure) => renderForm(res, FORGOT.view, failure.status, { title: FORGOT.title, ...failure, values: req.body });
  // A dead token gets no form again; a validation failure gets the form back to correct.
  const redrawReset: FormRedraw = (req, res, failure) => {
    noStore(res);
    renderForm(res, RESET.view, failure.status, { title: RESET.title, ...failure, token: tokenOf(req), showForm: failure.error !== RESET_MESSAGES.invalid });
  };

  /** After the routes: a refused form post gets its page back. */
  const formErrorPages = formErrors({ '/request-password-reset': redrawForgot, '/reset-password': redrawReset });

  return { forgotPage, requestReset, resetPage, reset, formErrorPages };
}
