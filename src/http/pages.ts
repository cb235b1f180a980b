import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import { AppError } from './app-error';
import { lookUpNotice } from './notices';

/**
 * Whether a request gets a page (HTML, redirects) rather than JSON. A browser states it through Accept
 * (CONTRACT 2); a plain HTML form post that states no preference is a browser too, so ties go to HTML
 * for urlencoded posts and to JSON for everything else.
 */
export function wantsPage(req: Request): boolean {
  if (req.is('application/x-www-form-urlencoded')) return req.accepts(['html', 'json']) === 'html';
  return req.accepts(['json', 'html']) === 'html';
}

/** Keys whose values are never drawn back into a form. */
const SECRET_KEYS: ReadonlySet<string> = new Set(['password', 'currentPassword', 'newPassword', 'code', '_csrf']);

const MAX_KEPT_DEPTH = 4;

/**
 * A value a view can draw: primitives, and arrays and objects of them. A key that shadows
 * Object.prototype (`toString`, `valueOf`, `__proto__`…) is dropped: a posted `{"email":{"toString":1}}`
 * would otherwise make the template's String(value) throw.
 */
function drawable(value: unknown, depth: number): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value !== 'object' || depth >= MAX_KEPT_DEPTH) return undefined;
  if (Array.isArray(value)) return value.map((item) => drawable(item, depth + 1)).filter((item) => item !== undefined);
  const entries = Object.entries(value)
    .filter(([key]) => !(key in Object.prototype))
    .map(([key, item]) => [key, drawable(item, depth + 1)] as const)
    .filter(([, item]) => item !== undefined);
  return Object.fromEntries(entries);
}

/** The typed values of a failed form post to show again: every drawable field but secrets. */
export function keptValues(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return {};
  const withoutSecrets = Object.fromEntries(Object.entries(body).filter(([key]) => !SECRET_KEYS.has(key)));
  return drawable(withoutSecrets, 0) as Record<string, unknown>;
}

/** What a form page is drawn with: field errors, a page-level message, the kept values, anything else. */
export interface FormState {
  values?: Record<string, unknown>;
  errors?: Record<string, string>;
  error?: string | null;
  message?: string | null;
  [local: string]: unknown;
}

/** Draws a form page; values are passed through keptValues, so a password is never drawn back. */
export function renderForm(res: Response, view: string, status: number, state: FormState): void {
  res.status(status).render(view, {
    ...state,
    values: keptValues(state.values ?? {}),
    errors: state.errors ?? {},
    error: state.error ?? null,
    message: state.message ?? null,
  });
}

/** Redraws the page of one form route after a refused post; may be async (it may read settings). */
export type FormRedraw = (
  req: Request,
  res: Response,
  failure: { status: number; error: string; errors: Record<string, string>; body?: Record<string, unknown> },
) => unknown;

/**
 * One error handler for a router's forms: a refused post (4xx AppError) of a page request gets its form
 * back through the route's redraw, with the status, any headers (Retry-After) and public body fields kept. JSON clients, and
 * routes without a redraw, fall through to the app's error handler.
 */
export function formErrors(redraws: Record<string, FormRedraw>): ErrorRequestHandler {
  return async (err, req, res, next) => {
    if (!(err instanceof AppError) || err.status >= 500 || req.method !== 'POST' || !wantsPage(req)) return next(err);
    const redraw = redraws[req.path.toLowerCase().replace(/\/+$/, '')];
    if (!redraw) return next(err);
    await redrawRefused(err, req, res, redraw);
  };
}

/** Draws a refused post's form again: the refusal's status and headers (Retry-After), its errors and public body fields. */
async function redrawRefused(err: AppError, req: Request, res: Response, redraw: FormRedraw): Promise<void> {
  for (const [name, value] of Object.entries(err.options.headers ?? {})) res.setHeader(name, value);
  await redraw(req, res, { status: err.status, error: err.message, errors: err.options.errors ?? {}, body: err.options.body });
}

/**
 * A form post's handler whose refusal (a 4xx AppError: validation, a conflict, a denial) comes back to
 * its form through `redraw`, with the errors and the typed values. For routes with parameters
 * (`/users/:id/edit`), which `formErrors` cannot key by path; failures of 500 and up go on to the error handler.
 */
export function formPost(handle: RequestHandler, redraw: FormRedraw): RequestHandler {
  return async (req, res, next) => {
    try {
      await handle(req, res, next);
    } catch (err) {
      if (!(err instanceof AppError) || err.status >= 500) throw err;
      await redrawRefused(err, req, res, redraw);
    }
  };
}

/**
 * Answers with a page of ours that continues to `target` (a same-origin path with its notice) by itself. For
 * a browser that arrives from another site (an OAuth provider's redirect): a 302 would keep the navigation
 * cross-site, so the SameSite=Strict `auth_token` would not reach the page; the navigation this page starts
 * is same-site. The notice is shown here too, for a browser that does not follow the refresh.
 */
export function continueTo(res: Response, target: string, linkText = 'Continue to your profile'): void {
  const notice = lookUpNotice(new URL(target, 'http://x').searchParams.get('notice'));
  res
    .status(200)
    .set('Cache-Control', 'no-store')
    .render('continue', { title: 'Continue', target, linkText, message: notice?.kind === 'message' ? notice.text : null, error: notice?.kind === 'error' ? notice.text : null });
}
