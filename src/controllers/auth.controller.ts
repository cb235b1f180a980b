import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import type { Container } from '../container';
import { AppError } from '../http/app-error';
import { requestContext } from '../http/request-context';
import { safeRedirect } from '../http/safe-redirect';
import { extractToken } from '../auth/credentials';
import { STRATEGY } from '../auth/passport';
import { INVALID_CREDENTIALS, type LocalAuthInfo } from '../auth/local.strategy';
import { coerceFormValues, isPlainObject } from '../profiles/profile-validator';
import type { LoginBody, RegisterBody, SeedAdminBody } from '../routes/auth.routes';

const AFTER_SIGN_IN = '/admin';
const TITLES = { login: 'Sign in', register: 'Create an account' } as const;
const SIGNED_OUT = 'You have been signed out.';
const MAX_NOTICE_LENGTH = 200;

/** A standard control of the sign-in and registration forms (views/partials/form-field.ejs). */
export interface FormField {
  name: string;
  label: string;
  type: 'text' | 'email' | 'password';
  autocomplete?: string;
  required?: boolean;
  minlength?: number;
  maxlength?: number;
}

const LOGIN_FIELDS: readonly FormField[] = [
  { name: 'email', label: 'Email', type: 'email', autocomplete: 'username', required: true, maxlength: 255 },
  { name: 'password', label: 'Password', type: 'password', autocomplete: 'current-password', required: true, maxlength: 1024 },
];

/** Standard registration controls; the custom registrationFields are rendered after them. */
const REGISTER_FIELDS: readonly FormField[] = [
  { name: 'email', label: 'Email', type: 'email', autocomplete: 'email', required: true, maxlength: 255 },
  { name: 'password', label: 'Password', type: 'password', autocomplete: 'new-password', required: true, minlength: 8, maxlength: 128 },
  { name: 'username', label: 'Username', type: 'text', autocomplete: 'username', minlength: 3, maxlength: 64 },
  { name: 'firstName', label: 'First name', type: 'text', autocomplete: 'given-name', maxlength: 100 },
  { name: 'lastName', label: 'Last name', type: 'text', autocomplete: 'family-name', maxlength: 100 },
];

/** A urlencoded post from one of our HTML forms (answered with redirects and pages, not JSON). */
function isFormPost(req: Request): boolean {
  return Boolean(req.is('application/x-www-form-urlencoded'));
}

function notice(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value.slice(0, MAX_NOTICE_LENGTH) : null;
}

/** Form values to show again: strings only, never the password. */
function echoValues(body: unknown): Record<string, unknown> {
  if (!isPlainObject(body)) return {};
  const values: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (key !== 'password') values[key] = value;
  }
  return values;
}

/** Handlers of the /auth session routes: parse (already done by the route's schema) → service → answer. */
export function createAuthController(container: Container) {
  const { auth, cookies, passport, profiles, settings, users } = container;

  function renderLogin(res: Response, status: number, locals: { values?: Record<string, unknown>; errors?: Record<string, string>; error?: string | null; message?: string | null; redirect?: string | null }) {
    res.status(status).render('auth/login', {
      title: TITLES.login,
      fields: LOGIN_FIELDS,
      values: locals.values ?? {},
      errors: locals.errors ?? {},
      error: locals.error ?? null,
      message: locals.message ?? null,
      redirect: locals.redirect ?? null,
    });
  }

  async function renderRegister(res: Response, status: number, locals: { values?: Record<string, unknown>; errors?: Record<string, string>; error?: string | null }) {
    const { allowRegistration } = await settings.getSecuritySettings();
    // The first user may always register; the form says "disabled" only when the post would be refused.
    const disabled = !allowRegistration.value && (await users.anyUserExists());
    res.status(status).render('auth/register', {
      title: TITLES.register,
      fields: REGISTER_FIELDS,
      customFields: profiles.registrationFields(),
      values: locals.values ?? {},
      errors: locals.errors ?? {},
      error: locals.error ?? null,
      disabled,
    });
  }

  /** passport-local with a callback: its outcome as a promise (no server session). */
  function authenticateLocal(req: Request, res: Response): Promise<LocalAuthInfo | undefined> {
    return new Promise((resolve, reject) => {
      passport.authenticate(STRATEGY.local, { session: false }, (err: unknown, _user: unknown, info: LocalAuthInfo | undefined) => {
        if (err) reject(err);
        else resolve(info);
      })(req, res, reject);
    });
  }

  const loginPage: RequestHandler = (req, res) => {
    const query = req.query as Record<string, unknown>;
    renderLogin(res, 200, { error: notice(query.error), message: notice(query.message), redirect: safeRedirect(query.redirect) });
  };

  const login: RequestHandler = async (req, res) => {
    const body = req.body as LoginBody;
    const context = requestContext(req);
    const info = await authenticateLocal(req, res);
    if (!info?.result) throw AppError.unauthorized(INVALID_CREDENTIALS);
    if (!info.result.ok) await auth.failPasswordLogin(info.result, context);
    const signedIn = await auth.completePasswordLogin(info.result as Extract<typeof info.result, { ok: true }>, context);
    cookies.set(res, signedIn.issued);
    if (isFormPost(req)) {
      res.redirect(302, safeRedirect(body.redirect) ?? AFTER_SIGN_IN);
      return;
    }
    res.json({ user: signedIn.user, token: signedIn.issued.token });
  };

  const registerPage: RequestHandler = async (_req, res) => {
    await renderRegister(res, 200, {});
  };

  const register: RequestHandler = async (req, res) => {
    const body = req.body as RegisterBody;
    const names = profiles.definition.registrationFields;
    // Only the registrationFields go on to the profile validator; any other extra key is ignored (CONTRACT 4).
    const custom = isFormPost(req)
      ? coerceFormValues(profiles.definition, names, body)
      : Object.fromEntries(names.filter((name) => Object.hasOwn(body, name)).map((name) => [name, (body as Record<string, unknown>)[name]]));
    const signedIn = await auth.register(
      { email: body.email, password: body.password, username: body.username, firstName: body.firstName, lastName: body.lastName, custom },
      requestContext(req),
    );
    cookies.set(res, signedIn.issued);
    if (isFormPost(req)) {
      res.redirect(302, AFTER_SIGN_IN);
      return;
    }
    res.status(201).json({ user: signedIn.user, token: signedIn.issued.token });
  };

  const me: RequestHandler = (req, res) => {
    res.json({ user: profiles.presentUser(req.user as Express.User) });
  };

  const refresh: RequestHandler = async (req, res) => {
    const issued = await auth.refresh(extractToken(req), requestContext(req));
    cookies.set(res, issued);
    res.json({ token: issued.token, expiresIn: issued.expiresIn });
  };

  const logout: RequestHandler = async (req, res) => {
    const signedIn = req.user && req.authToken && req.tokenClaims ? { user: req.user, token: req.authToken, claims: req.tokenClaims } : null;
    await auth.logout(signedIn, requestContext(req));
    cookies.clear(res);
    if (isFormPost(req)) {
      res.redirect(302, `/auth/login?message=${encodeURIComponent(SIGNED_OUT)}`);
      return;
    }
    res.json({ success: true });
  };

  const logoutAll: RequestHandler = async (req, res) => {
    await auth.logoutAll(req.user as Express.User, requestContext(req));
    cookies.clear(res);
    if (isFormPost(req)) {
      res.redirect(302, `/auth/login?message=${encodeURIComponent(SIGNED_OUT)}`);
      return;
    }
    res.json({ success: true });
  };

  const seedAdmin: RequestHandler = async (req, res) => {
    const result = await auth.seedAdmin(req.body as SeedAdminBody, requestContext(req));
    res.status(201).json(result);
  };

  /**
   * A failed post of the sign-in or registration FORM gets its page back with the message and field
   * errors (status kept: 400, 401, 403, 409, 429); JSON clients fall through to the app's error handler.
   */
  const formErrorPages: ErrorRequestHandler = async (err, req, res, next) => {
    if (!(err instanceof AppError) || err.status >= 500 || req.method !== 'POST' || !isFormPost(req)) return next(err);
    const path = req.path.toLowerCase().replace(/\/+$/, '');
    if (path !== '/login' && path !== '/register') return next(err);
    for (const [name, value] of Object.entries(err.options.headers ?? {})) res.setHeader(name, value);
    // Custom fields are shown again typed (a ticked checkbox as true, a multiselect as a list), as the partial expects.
    const values = { ...echoValues(req.body), ...coerceFormValues(profiles.definition, profiles.definition.registrationFields, req.body) };
    const errors = err.options.errors ?? {};
    if (path === '/login') renderLogin(res, err.status, { values, errors, error: err.message, redirect: safeRedirect(values.redirect) });
    else await renderRegister(res, err.status, { values, errors, error: err.message });
  };

  return { loginPage, login, registerPage, register, me, refresh, logout, logoutAll, seedAdmin, formErrorPages };
}
