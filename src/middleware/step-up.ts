import type { RequestHandler } from 'express';
import { AppError } from '../http/app-error';
import { wantsPage } from '../http/pages';
import { withNotice } from '../http/notices';

/** How recent a sign-in must be for a step-up route (CONTRACT 9 `STEP_UP_MAX_AGE`, its default). */
export const STEP_UP_MAX_AGE_SECONDS = 10 * 60;

export const STEP_UP_MESSAGES = {
  required: 'Recent sign-in required',
} as const;

/**
 * Guards an action a stolen token must not be able to take (linking a provider, say): the request's sign-in
 * (`auth_time`, carried unchanged through refresh) must be at most STEP_UP_MAX_AGE_SECONDS old. Runs after
 * requireAuth. JSON clients get 403 `{ error, stepUp: true }`; a page is sent to sign in again and come
 * back to `returnTo` (the page the action started from, never the POST route itself).
 */
export function requireRecentSignIn(options: { returnTo: string }): RequestHandler {
  return (req, res, next) => {
    const authTime = req.tokenClaims?.auth_time;
    const now = Math.floor(Date.now() / 1000);
    if (authTime !== undefined && now - authTime <= STEP_UP_MAX_AGE_SECONDS) return next();
    if (wantsPage(req)) {
      res.redirect(302, withNotice(`/auth/login?redirect=${encodeURIComponent(options.returnTo)}`, 'sign_in_again'));
      return;
    }
    next(new AppError(403, STEP_UP_MESSAGES.required, { body: { stepUp: true } }));
  };
}
