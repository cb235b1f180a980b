import { z } from 'zod';
import type { Request, RequestHandler, Response } from 'express';
import type { Container } from '../container';
import { createApiRouter, validated } from '../http/api-router';
import { formErrors, renderForm, wantsPage, type FormRedraw } from '../http/pages';
import { email, redirectField, EMAIL_MAX_LENGTH } from '../http/input-rules';
import { safeRedirect } from '../http/safe-redirect';
import { AppError } from '../http/app-error';
import { noStore } from '../auth/cookies';
import { STRATEGY } from '../auth/passport';
import { OTP_MESSAGES, rateHeaders } from '../services/otp.service';
import { loginResponse } from './auth.schemas';

const requestBody = z.strictObject({ email, redirect: redirectField });
// The configured length (4–8) is checked by the service, which knows the setting.
const verifyBody = z.strictObject({
  email,
  code: z.string({ message: 'must be a string of digits' }).regex(/^\d{4,8}$/, { message: 'must be 4 to 8 digits' }),
  redirect: redirectField,
});
const requestedView = z.object({ message: z.string(), expiresIn: z.number().int() });
const failedView = z.object({ error: z.string(), attemptsRemaining: z.number().int() });
const tags = ['OTP sign-in'];
const disabled = `404 "${OTP_MESSAGES.disabled}" while the otp-login plugin is inactive`;

const doc = {
  request: {
    summary: 'Email a one-time sign-in code',
    description:
      'The same answer for unknown, deactivated and active accounts; only an active account (or, while the plugin allows new ' +
      'users, an unknown email) gets the mail. A new code voids older ones. Limited to rateLimitPerHour codes per email per hour.',
    tags,
    body: requestBody,
    form: true,
    responses: {
      200: { description: 'the same answer for every email', schema: requestedView },
      400: 'validation failed',
      404: disabled,
      429: 'too many codes for this email this hour, or too many requests from this client (10 per minute)',
      503: 'no mail service is configured',
    },
  },
  verify: {
    summary: 'Sign in with an emailed one-time code',
    description:
      'Every check counts against maxAttempts, atomically; a spent or used code is dead. Success sets auth_token and csrf_token. ' +
      'An unknown email becomes a viewer only while allowNewUserRegistration is on.',
    tags,
    body: verifyBody,
    form: true,
    responses: {
      200: { description: 'Login response (user with custom fields)', schema: loginResponse },
      302: 'form post: to /admin or the redirect field',
      400: 'validation failed (the code must have the configured length)',
      401: { description: OTP_MESSAGES.invalid, schema: failedView },
      404: disabled,
    },
  },
};

const PAGE = { view: 'auth/otp', title: 'Sign in with a code' } as const;

/** CONTRACT 4 OTP sign-in and CONTRACT 6 its page, behind the `otp-login` plugin. Mounted at /auth/otp. */
export function otpRoutes(container: Container) {
  const { otp, plugins, limits, authenticate, issueSession } = container;
  const api = createApiRouter(container.docs, '/auth/otp');

  // Every answer here may carry a credential or a code form: never cached. The plugin is read on every
  // request, so an admin's switch applies at once on every instance.
  const enabled: RequestHandler = async (_req, res, next) => {
    noStore(res);
    next((await plugins.isActive('otp-login')) ? undefined : AppError.notFound(OTP_MESSAGES.disabled));
  };

  async function drawPage(req: Request, res: Response, status: number, state: Record<string, unknown>) {
    const { codeLength } = await plugins.settingsOf('otp-login');
    const source = (req.method === 'GET' ? req.query : req.body) as Record<string, unknown>;
    renderForm(res, PAGE.view, status, { title: PAGE.title, step: 'email', codeLength, redirect: safeRedirect(source?.redirect), attemptsRemaining: null, ...state });
  }

  const page: RequestHandler = (req, res) => {
    const query = req.query as Record<string, unknown>;
    return drawPage(req, res, 200, { values: { email: typeof query.email === 'string' ? query.email.slice(0, EMAIL_MAX_LENGTH) : '' } });
  };

  const request: RequestHandler = async (req, res) => {
    const body = req.body as z.output<typeof requestBody>;
    const { expiresIn, rate } = await otp.requestCode(body.email);
    res.set(rateHeaders(rate));
    if (wantsPage(req)) return drawPage(req, res, 200, { step: 'code', values: { email: body.email }, message: OTP_MESSAGES.requested });
    res.json({ message: OTP_MESSAGES.requested, expiresIn });
  };

  const redrawRequest: FormRedraw = (req, res, failure) => drawPage(req, res, failure.status, { ...failure, values: req.body });
  const redrawVerify: FormRedraw = (req, res, failure) =>
    drawPage(req, res, failure.status, { ...failure, step: 'code', values: req.body, attemptsRemaining: failure.body?.attemptsRemaining ?? null });

  api.router.get('/', enabled, page);
  api.post('/request', doc.request, enabled, limits.otpRequest, validated, request);
  api.post('/verify', doc.verify, enabled, validated, authenticate(STRATEGY.otp), issueSession('auth.otp_verified'));

  api.router.use(formErrors({ '/request': redrawRequest, '/verify': redrawVerify }));
  return api.router;
}
