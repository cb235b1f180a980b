import type { Request, RequestHandler, Response } from 'express';
import type { Container } from '../container';
import { adminAudit, requestContext } from '../http/request-context';
import { formErrors, renderForm, wantsPage, type FormRedraw, type FormState } from '../http/pages';
import { withNotice } from '../http/notices';
import { safeRedirect } from '../http/safe-redirect';
import { STEP_UP_PAGE } from '../middleware/step-up';
import { SECOND_FACTOR_MESSAGES } from '../sign-in/second-factor';
import type { StepUpBody } from '../schemas/two-factor.schemas';
import { AppError } from '../http/app-error';
import { STEP_UP_PROOF_MESSAGES } from '../services/security/step-up.service';
import type { Enrolling } from '../services/security/two-factor.service';

const TITLES = { challenge: 'Two-factor authentication', stepUp: 'Confirm it is you' } as const;
/** Where the step-up prompt goes back to when it was opened without a (safe) `redirect`. */
const STEP_UP_DEFAULT_RETURN = '/admin/profile';

/** The signed-in user as a TOTP enrolment sees them: bound to the request's session (`sid`), which alone may see or confirm its pending secret. */
export function enrolling(req: Request): Enrolling {
  const user = req.user as Express.User;
  return { id: user.id, email: user.email, session: req.tokenClaims?.sid ?? '' };
}

/** Handlers of /auth/2fa (enrolment API, the second step's page) and /auth/step-up (API and page). */
export function createTwoFactorController(container: Container) {
  const { twoFactor, stepUp, secondFactor, passkeys, tokens, cookies } = container;
  const self = (req: Request) => req.user as Express.User;

  const setup: RequestHandler = async (req, res) => {
    res.json(await twoFactor.beginSetup(enrolling(req)));
  };

  const confirm: RequestHandler = async (req, res) => {
    const { code } = req.body as { code: string };
    res.json({ recoveryCodes: await twoFactor.confirm(enrolling(req), code, requestContext(req)) });
  };

  const regenerate: RequestHandler = async (req, res) => {
    res.json({ recoveryCodes: await twoFactor.regenerateRecoveryCodes(self(req), requestContext(req)) });
  };

  const disable: RequestHandler = async (req, res) => {
    await twoFactor.disable(self(req), requestContext(req));
    res.json({ success: true });
  };

  const adminReset: RequestHandler = async (req, res) => {
    await twoFactor.reset(String(req.params.id), adminAudit(req));
    res.json({ success: true });
  };

  /** Draws the second step's page for the challenge in the page's cookie; without a live one, back to sign-in. */
  async function renderChallenge(req: Request, res: Response, status: number, state: FormState): Promise<void> {
    const pending = await secondFactor.pending(secondFactor.challengeOf(req));
    if (!pending) {
      secondFactor.clearCookie(res);
      res.redirect(303, withNotice('/auth/login', 'two_factor_expired'));
      return;
    }
    renderForm(res, 'auth/2fa', status, { title: TITLES.challenge, methods: pending.methods, recovery: false, ...state });
  }

  const challengePage: RequestHandler = (req, res) => renderChallenge(req, res, 200, {});

  // Every refusal reads the same; a challenge that died meanwhile leads back to sign-in.
  const redrawChallenge: FormRedraw = (req, res, failure) => {
    const recovery = (req.body as Record<string, unknown> | undefined)?.recoveryCode !== undefined;
    const field = recovery ? 'recoveryCode' : 'code';
    const errors = failure.status === 400 ? { [field]: failure.errors[field] ?? failure.errors.code ?? SECOND_FACTOR_MESSAGES.invalid } : {};
    return renderChallenge(req, res, failure.status, { error: failure.status === 400 ? null : failure.error, errors, recovery });
  };

  /** After the session step: the challenge cookie has done its work (set only on page answers). */
  const clearChallenge: RequestHandler = (_req, res, next) => {
    secondFactor.clearCookie(res);
    next();
  };

  const returnOf = (value: unknown) => safeRedirect(value) ?? STEP_UP_DEFAULT_RETURN;

  async function renderStepUp(req: Request, res: Response, status: number, state: FormState): Promise<void> {
    const offered = await stepUp.options(self(req).id);
    renderForm(res, 'auth/step-up', status, { title: TITLES.stepUp, ...offered, ...state });
  }

  const stepUpPage: RequestHandler = (req, res) => renderStepUp(req, res, 200, { redirect: returnOf((req.query as Record<string, unknown>).redirect) });

  /** A refused step-up post comes back to its prompt; one by nobody signed in (no prompt to draw) goes to sign in. */
  const redrawStepUp: FormRedraw = (req, res, failure) => {
    if (!req.user) return res.redirect(302, withNotice('/auth/login', 'sign_in_required'));
    return renderStepUp(req, res, failure.status, { error: failure.error, errors: failure.errors, redirect: returnOf((req.body as Record<string, unknown>).redirect) });
  };

  /**
   * Step-up: the proof checked, a new token of the same session with `auth_time` now; cookies renewed
   * (when the request came with them: a Bearer client keeps using what it is answered). A page goes back
   * to where it came from, where the user repeats the action.
   */
  const proveStepUp: RequestHandler = async (req, res) => {
    const body = req.body as StepUpBody;
    const { redirect: _redirect, ...given } = body;
    const proof = body.password !== undefined ? { password: body.password } : given;
    const session = await stepUp.prove(self(req).id, req.tokenClaims?.sid, proof, requestContext(req));
    const issued = await tokens.issue(self(req), session);
    cookies.set(res, issued);
    if (wantsPage(req)) {
      res.redirect(303, withNotice(returnOf(body.redirect), 'step_up_done'));
      return;
    }
    res.json({ token: issued.token });
  };

  /** Request options for stepping up with one of the user's passkeys (user verification required), sent back as `{ passkey }`. */
  const stepUpPasskeyOptions: RequestHandler = async (req, res) => {
    const { methods } = await stepUp.options(self(req).id);
    if (!passkeys.available || !methods.includes('passkey')) throw AppError.badRequest(STEP_UP_PROOF_MESSAGES.noPasskey);
    res.json(await passkeys.secondStepOptions(self(req).id));
  };

  const formErrorPages = formErrors({ '/2fa/verify': redrawChallenge, '/step-up': redrawStepUp });

  return { setup, confirm, regenerate, disable, adminReset, challengePage, clearChallenge, stepUpPage, proveStepUp, stepUpPasskeyOptions, formErrorPages, stepUpPath: STEP_UP_PAGE };
}
