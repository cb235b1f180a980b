import { z } from 'zod';
import type { Request, RequestHandler } from 'express';
import type { Container } from '../container';
import { createApiRouter } from '../http/api-router';
import { requestContext } from '../http/request-context';
import { formErrors, notice, renderForm, wantsPage, type FormRedraw } from '../http/pages';
import { email, newPassword } from '../http/input-rules';
import { noStore } from '../auth/cookies';
import { RESET_MESSAGES } from '../services/password-reset.service';

const requestBody = z.strictObject({ email });
const resetBody = z.strictObject({ token: z.string().min(1, { message: 'is required' }).max(512), password: newPassword });
const messageView = z.object({ message: z.string() });
const tags = ['Password reset'];

const FORGOT = { view: 'auth/forgot-password', title: 'Forgot your password?' } as const;
const RESET = { view: 'auth/reset-password', title: 'Choose a new password' } as const;
const RESET_DONE = 'Your password has been reset. Please sign in.';

const doc = {
  request: {
    summary: 'Email a password reset link',
    description: 'Always answers the same, whether or not the account exists. Rate limited: 3 per 15 minutes per client IP.',
    tags,
    body: requestBody,
    form: true,
    responses: {
      200: { description: 'the same answer for every email', schema: messageView },
      303: 'form post: to /auth/forgot-password with the same message',
      400: 'validation failed',
      429: 'rate limited',
    },
  },
  reset: {
    summary: 'Set a new password with a reset token',
    description: 'The token is single-use and valid for one hour. Every existing session token of the user stops working.',
    tags,
    body: resetBody,
    form: true,
    responses: { 200: { description: 'password changed', schema: messageView }, 400: 'invalid or expired token, or validation failed' },
  },
};

function tokenOf(req: Request): string {
  const token = (req.query as Record<string, unknown>).token ?? (req.body as Record<string, unknown> | undefined)?.token;
  return typeof token === 'string' ? token.slice(0, 512) : '';
}

/** CONTRACT 4 password reset: request a link, show the form, set the new password. Mounted at /auth. */
export function passwordResetRoutes(container: Container) {
  const { passwordReset, limits } = container;
  const api = createApiRouter(container.docs, '/auth');

  const forgotPage: RequestHandler = (req, res) =>
    renderForm(res, FORGOT.view, 200, { title: FORGOT.title, message: notice((req.query as Record<string, unknown>).message) });

  // A page post is redirected (303) to the confirmation, so reloading it does not post again and spend one
  // of the few requests the limit allows.
  const requestReset: RequestHandler = async (req, res) => {
    await passwordReset.requestReset((req.body as z.output<typeof requestBody>).email, requestContext(req));
    if (wantsPage(req)) res.redirect(303, `/auth/forgot-password?message=${encodeURIComponent(RESET_MESSAGES.requested)}`);
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
    const { token, password } = req.body as z.output<typeof resetBody>;
    await passwordReset.resetPassword(token, password, requestContext(req));
    noStore(res);
    if (wantsPage(req)) res.redirect(302, `/auth/login?message=${encodeURIComponent(RESET_DONE)}`);
    else res.json({ message: RESET_MESSAGES.done });
  };

  const redrawForgot: FormRedraw = (req, res, failure) => renderForm(res, FORGOT.view, failure.status, { title: FORGOT.title, ...failure, values: req.body });
  // A dead token gets no form again; a validation failure gets the form back to correct.
  const redrawReset: FormRedraw = (req, res, failure) => {
    noStore(res);
    renderForm(res, RESET.view, failure.status, { title: RESET.title, ...failure, token: tokenOf(req), showForm: failure.error !== RESET_MESSAGES.invalid });
  };

  api.router.get('/forgot-password', forgotPage);
  api.post('/request-password-reset', doc.request, limits.passwordReset, requestReset);
  api.router.get('/reset-password', resetPage);
  api.post('/reset-password', doc.reset, reset);

  api.router.use(formErrors({ '/request-password-reset': redrawForgot, '/reset-password': redrawReset }));
  return api.router;
}
