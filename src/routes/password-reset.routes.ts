import { z } from 'zod';
import type { ErrorRequestHandler, Request, Response } from 'express';
import type { Container } from '../container';
import { createApiRouter } from '../http/api-router';
import { AppError } from '../http/app-error';
import { isBrowserRequest } from '../http/negotiation';
import { requestContext } from '../http/request-context';
import { RESET_MESSAGES } from '../services/password-reset.service';

const email = z.string().trim().toLowerCase().max(255).pipe(z.email({ message: 'must be a valid email address' }));
const requestBody = z.strictObject({ email });
const resetBody = z.strictObject({
  token: z.string().min(1, { message: 'is required' }).max(512),
  password: z
    .string()
    .min(8, { message: 'must be at least 8 characters' })
    .max(128, { message: 'must be at most 128 characters' }),
});
const messageView = z.object({ message: z.string() });

const FORGOT_VIEW = 'auth/forgot-password';
const RESET_VIEW = 'auth/reset-password';
const TITLES = { forgot: 'Forgot your password?', reset: 'Choose a new password' };

/** The pages carry a one-time token (in the URL and the form): never cached. */
function noStore(res: Response): Response {
  return res.set('Cache-Control', 'no-store');
}

function tokenOf(req: Request): string {
  const token = (req.query as Record<string, unknown>).token ?? (req.body as Record<string, unknown> | undefined)?.token;
  return typeof token === 'string' ? token.slice(0, 512) : '';
}

/**
 * A browser's form post that fails validation (or the token check) gets its form back with the errors,
 * not the generic error page. JSON clients fall through to the app's error handler.
 */
const formErrors: ErrorRequestHandler = (err, req, res, next) => {
  if (!(err instanceof AppError) || err.status !== 400 || !isBrowserRequest(req)) return next(err);
  const errors = err.options.errors ?? {};
  if (req.path === '/reset-password') {
    // A dead token gets no form again; a validation failure gets the form back to correct.
    const showForm = err.message !== RESET_MESSAGES.invalid;
    noStore(res).status(400).render(RESET_VIEW, { title: TITLES.reset, token: tokenOf(req), showForm, error: err.message, errors });
    return;
  }
  if (req.path === '/request-password-reset') {
    const body = req.body as Record<string, unknown> | undefined;
    const value = typeof body?.email === 'string' ? body.email.slice(0, 255) : '';
    res.status(400).render(FORGOT_VIEW, { title: TITLES.forgot, email: value, message: null, error: err.message, errors });
    return;
  }
  next(err);
};

/** CONTRACT 4 password reset: request a link, show the form, set the new password. Mounted at /auth. */
export function passwordResetRoutes(container: Container) {
  const { passwordReset, limits } = container;
  const api = createApiRouter(container.docs, '/auth');
  const tags = ['Password reset'];

  api.router.get('/forgot-password', (_req, res) => {
    res.render(FORGOT_VIEW, { title: TITLES.forgot, email: '', message: null, error: null, errors: {} });
  });

  api.post(
    '/request-password-reset',
    {
      summary: 'Email a password reset link',
      description: 'Always answers the same, whether or not the account exists. Rate limited: 3 per 15 minutes per client IP.',
      tags,
      body: requestBody,
      form: true,
      responses: { 200: { description: 'the same answer for every email', schema: messageView }, 400: 'validation failed', 429: 'rate limited' },
    },
    limits.passwordReset,
    async (req, res) => {
      const { email: address } = req.body as z.output<typeof requestBody>;
      await passwordReset.requestReset(address, requestContext(req));
      if (isBrowserRequest(req)) {
        res.render(FORGOT_VIEW, { title: TITLES.forgot, email: '', message: RESET_MESSAGES.requested, error: null, errors: {} });
        return;
      }
      res.json({ message: RESET_MESSAGES.requested });
    },
  );

  api.router.get('/reset-password', async (req, res) => {
    const token = tokenOf(req);
    const usable = token !== '' && (await passwordReset.isUsable(token));
    // 200 either way: the page itself explains an unusable link and offers a new one.
    noStore(res).render(RESET_VIEW, { title: TITLES.reset, token, showForm: usable, error: usable ? null : RESET_MESSAGES.invalid, errors: {} });
  });

  api.post(
    '/reset-password',
    {
      summary: 'Set a new password with a reset token',
      description: 'The token is single-use and valid for one hour. Every existing session token of the user stops working.',
      tags,
      body: resetBody,
      form: true,
      responses: { 200: { description: 'password changed', schema: messageView }, 400: 'invalid or expired token, or validation failed' },
    },
    async (req, res) => {
      const { token, password } = req.body as z.output<typeof resetBody>;
      await passwordReset.resetPassword(token, password, requestContext(req));
      noStore(res);
      if (isBrowserRequest(req)) {
        res.redirect(302, `/auth/login?message=${encodeURIComponent('Your password has been reset. Please sign in.')}`);
        return;
      }
      res.json({ message: RESET_MESSAGES.done });
    },
  );

  api.router.use(formErrors);
  return api.router;
}
