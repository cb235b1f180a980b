import type { Request, RequestHandler } from 'express';
import { AppError } from '../http/app-error';
import { wantsPage } from '../http/pages';
import { API_KEY_MESSAGES } from '../sessions/api-key-check';

/** How recent a sign-in must be for a step-up route when the app names no STEP_UP_MAX_AGE (CONTRACT 9 default). */
export const STEP_UP_MAX_AGE_SECONDS = 10 * 60;

/** The page that asks for the password or a code and comes back (views/auth/step-up.ejs). */
export const STEP_UP_PAGE = '/auth/step-up';

export const STEP_UP_MESSAGES = {
  required: 'Recent sign-in required',
} as const;

/**
 * Guards an action a stolen token must not be able to take (linking a provider, a password change, …):
 * the request's sign-in or last step-up (`auth_time`, carried unchanged through refresh) must be at most
 * STEP_UP_MAX_AGE old. The age is the app's (`app.locals.stepUpMaxAgeSeconds`, from config, set in
 * app.ts), so every route line keeps its one-argument form. Runs after requireAuth. JSON clients get 403
 * `{ error, stepUp: true }` and prove themselves at POST /auth/step-up; a page goes to the step-up prompt,
 * which comes back to `returnTo` (the page the action started from, never the POST route itself) where
 * the user repeats the click. A request an API key signed in is refused outright (CONTRACT 11): a key has
 * no sign-in to renew, and whatever else the request carries, the key is what acts.
 */
export function requireRecentSignIn(options: { /** The page, or how to name it from the request (an admin page of one user, say). */ returnTo: string | ((req: Request) => string) }): RequestHandler {
  return (req, res, next) => {
    if (req.apiKey) return next(new AppError(403, API_KEY_MESSAGES.refused));
    const maxAge = Number(req.app.locals.stepUpMaxAgeSeconds ?? STEP_UP_MAX_AGE_SECONDS);
    const authTime = req.tokenClaims?.auth_time;
    const now = Math.floor(Date.now() / 1000);
    if (authTime !== undefined && now - authTime <= maxAge) return next();
    if (wantsPage(req)) {
      const returnTo = typeof options.returnTo === 'string' ? options.returnTo : options.returnTo(req);
      res.redirect(303, `${STEP_UP_PAGE}?redirect=${encodeURIComponent(returnTo)}`);
      return;
    }
    next(new AppError(403, STEP_UP_MESSAGES.required, { body: { stepUp: true } }));
  };
}
