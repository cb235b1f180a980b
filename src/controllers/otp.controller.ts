import type { Request, RequestHandler, Response } from 'express';
import type { Container } from '../container';
import { formErrors, renderForm, wantsPage, type FormRedraw } from '../http/pages';
import { EMAIL_MAX_LENGTH } from '../util/account-text';
import { safeRedirect } from '../http/safe-redirect';
import { AppError } from '../http/app-error';
import { noStore } from '../http/no-store';
import { OTP_MESSAGES, rateHeaders } from '../services/sign-in-methods/otp.service';
import type { OtpRequestBody } from '../schemas/otp.schemas';

const PAGE = { view: 'auth/otp', title: 'Sign in with a code' } as const;

/** Handlers of CONTRACT 4's OTP sign-in and CONTRACT 6's page (verification is a strategy + the session step). */
export function createOtpController({ otp, otpPlugin }: Container) {
  // Every answer here may carry a credential or a code form: never cached.
  const enabled: RequestHandler = async (req, res, next) => {
    noStore(res);
    next((await otpPlugin(req)).active ? undefined : AppError.notFound(OTP_MESSAGES.disabled));
  };

  async function drawPage(req: Request, res: Response, status: number, state: Record<string, unknown>) {
    const { codeLength } = (await otpPlugin(req)).settings;
    const source = (req.method === 'GET' ? req.query : req.body) as Record<string, unknown>;
    renderForm(res, PAGE.view, status, { title: PAGE.title, step: 'email', codeLength, redirect: safeRedirect(source?.redirect), attemptsRemaining: null, ...state });
  }

  const page: RequestHandler = (req, res) => {
    const query = req.query as Record<string, unknown>;
    return drawPage(req, res, 200, { values: { email: typeof query.email === 'string' ? query.email.slice(0, EMAIL_MAX_LENGTH) : '' } });
  };

  const request: RequestHandler = async (req, res) => {
    const body = req.body as OtpRequestBody;
    const { expiresIn, rate } = await otp.requestCode(body.email, (await otpPlugin(req)).settings);
    res.set(rateHeaders(rate));
    if (wantsPage(req)) return drawPage(req, res, 200, { step: 'code', values: { email: body.email }, message: OTP_MESSAGES.requested });
    res.json({ message: OTP_MESSAGES.requested, expiresIn });
  };

  const redrawRequest: FormRedraw = (req, res, failure) => drawPage(req, res, failure.status, { ...failure, values: req.body });
  const redrawVerify: FormRedraw = (req, res, failure) =>
    drawPage(req, res, failure.status, { ...failure, step: 'code', values: req.body, attemptsRemaining: failure.body?.attemptsRemaining ?? null });

  /** After the routes: a refused form post gets its page back (with the attempts left, after a wrong code). */
  const formErrorPages = formErrors({ '/request': redrawRequest, '/verify': redrawVerify });

  return { enabled, page, request, formErrorPages };
}
