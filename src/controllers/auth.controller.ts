import type { Request, RequestHandler, Response } from 'express';
import type { Container } from '../container';
import { requestContext } from '../http/request-context';
import { safeRedirect } from '../http/safe-redirect';
import { formErrors, renderForm, wantsPage, type FormRedraw, type FormState } from '../http/pages';
import { noticeOf, withNotice } from '../http/notices';
import { EMAIL_MAX_LENGTH, NAME_MAX_LENGTH, PASSWORD_LENGTH, USERNAME_LENGTH } from '../util/account-text';
import { extractToken } from '../sessions/request-token';
import { coerceFormValues } from '../profiles/profile-form';
import { applyDefaults } from '../profiles/profile-defaults';
import { AUTH_ENDPOINTS, type RegisterBody, type SeedAdminBody } from '../schemas/auth.schemas';
import { AppError } from '../http/app-error';
import { fieldErrors, parseBodyEarly } from '../http/validate';

const TITLES = { login: 'Sign in', register: 'Create an account' } as const;

/** A standard control of the sign-in and registration forms (views/partials/form-field.ejs). */
export interface FormField {
  name: string;
  label: string;
  type: 'text' | 'email' | 'password';
  autocomplete?: string;
  required?: boolean;
  minlength?: number;
  maxlength?: number;
  /** A new password: the page draws a strength meter after it (public/password-strength.js). */
  strength?: boolean;
}

const LOGIN_FIELDS: readonly FormField[] = [
  { name: 'email', label: 'Email', type: 'email', autocomplete: 'username', required: true, maxlength: EMAIL_MAX_LENGTH },
  { name: 'password', label: 'Password', type: 'password', autocomplete: 'current-password', required: true, maxlength: 1024 },
];

/** Standard registration controls; the custom registrationFields are rendered after them. */
const REGISTER_FIELDS: readonly FormField[] = [
  { name: 'email', label: 'Email', type: 'email', autocomplete: 'email', required: true, maxlength: EMAIL_MAX_LENGTH },
  { name: 'password', label: 'Password', type: 'password', autocomplete: 'new-password', required: true, minlength: PASSWORD_LENGTH.min, maxlength: PASSWORD_LENGTH.max, strength: true },
  { name: 'username', label: 'Username', type: 'text', autocomplete: 'username', minlength: USERNAME_LENGTH.min, maxlength: USERNAME_LENGTH.max },
  { name: 'firstName', label: 'First name', type: 'text', autocomplete: 'given-name', maxlength: NAME_MAX_LENGTH },
  { name: 'lastName', label: 'Last name', type: 'text', autocomplete: 'family-name', maxlength: NAME_MAX_LENGTH },
];

/** Handlers of the /auth session routes other than sign-in itself (strategies + the session step do that). */
export function createAuthController(container: Container) {
  const { auth, cookies, profiles, users, plugins, magicLinks, sessions, oauthProviders, twoFactor } = container;

  /** Custom fields come back typed (a ticked checkbox as true, a multiselect as a list), as the partial expects. */
  function typedValues(body: unknown): Record<string, unknown> {
    return { ...(body as Record<string, unknown>), ...coerceFormValues(profiles.definition, profiles.definition.registrationFields, body) };
  }

  async function renderRegister(res: Response, status: number, state: { values?: Record<string, unknown>; errors?: Record<string, string>; error?: string }) {
    const disabled = !(await users.signUpOpen());
    renderForm(res, 'auth/register', status, { ...state, title: TITLES.register, fields: REGISTER_FIELDS, customFields: profiles.registrationFields(), disabled });
  }

  /** The other sign-in methods the page offers, read on every draw (an admin's switch shows at once). */
  async function otherMethods() {
    return { otpEnabled: await plugins.isActive('otp-login'), magicLinkEnabled: await magicLinks.isAvailable(), oauthProviders: await oauthProviders.enabled(), passkeysAvailable: container.passkeys.available, ssoAvailable: await container.ssoProviders.any() };
  }

  /** Draws the sign-in page (also after a magic-link form post: its message or its field error). */
  async function renderLogin(res: Response, status: number, state: FormState): Promise<void> {
    renderForm(res, 'auth/login', status, { title: TITLES.login, fields: LOGIN_FIELDS, ...state, ...(await otherMethods()) });
  }

  const loginPage: RequestHandler = async (req, res) => {
    const query = req.query as Record<string, unknown>;
    await renderLogin(res, 200, { ...noticeOf(query), redirect: safeRedirect(query.redirect) });
  };

  const redrawLogin: FormRedraw = async (req, res, failure) => {
    const values = typedValues(req.body);
    await renderLogin(res, failure.status, { ...failure, values, redirect: safeRedirect(values.redirect) });
  };

  // The form starts at the fields' defaults: a checkbox or choice drawn empty would post "off" or nothing, and
  // the form would store that where a JSON registration that leaves the field out gets the default.
  const registerPage: RequestHandler = async (_req, res) => {
    await renderRegister(res, 200, { values: applyDefaults(profiles.definition, {}, profiles.definition.registrationFields) });
  };

  const redrawRegister: FormRedraw = (req, res, failure) => renderRegister(res, failure.status, { ...failure, values: typedValues(req.body) });

  /** The registration fields of a body (typed from text for a form); any other extra key is ignored (CONTRACT 4). */
  function customFieldsOf(req: Request): Record<string, unknown> {
    const body = req.body as Record<string, unknown>;
    const names = profiles.definition.registrationFields;
    return req.is('application/x-www-form-urlencoded')
      ? coerceFormValues(profiles.definition, names, body)
      : Object.fromEntries(names.filter((name) => Object.hasOwn(body, name)).map((name) => [name, body[name]]));
  }

  /**
   * Runs before the route's own validation: when the standard fields are refused, the custom ones are judged
   * too, so one answer names every bad field (else a form would show its custom errors one round later).
   * An accepted body is handed on parsed, so validation does not judge the password a second time.
   */
  const checkRegistration: RequestHandler = async (req, _res, next) => {
    const standard = await parseBodyEarly(req, AUTH_ENDPOINTS.register.body);
    if (standard.success) return next();
    const custom = profiles.validateRegistration(customFieldsOf(req));
    throw AppError.validation({ ...(custom.ok ? {} : custom.errors), ...fieldErrors(standard.error, req.body) });
  };

  /** Creates the account, then hands the new user to the session step (like a strategy's success). */
  const register: RequestHandler = async (req, _res, next) => {
    const body = req.body as RegisterBody;
    const custom = customFieldsOf(req);
    const user = await auth.register({ email: body.email, password: body.password, username: body.username, firstName: body.firstName, lastName: body.lastName, custom });
    req.user = user;
    req.authInfo = { method: 'password', details: { role: user.role } };
    next();
  };

  /**
   * /auth/me's answer, serialized once per user record. Every credential check hands a user's requests the
   * same frozen record (the verification cache's) until anything about the user changes, and the answer
   * depends on that record alone (the profile definition is fixed at start), so it is kept with the record:
   * a changed user is a new record and a new answer. A record that is not frozen (a fresh database read)
   * or lacks twoFactorEnabled (asked of the two-factor service) is answered without being kept.
   */
  const meAnswers = new WeakMap<Express.User, string>();
  const me: RequestHandler = async (req, res) => {
    const user = req.user as Express.User;
    let answer = meAnswers.get(user);
    if (answer === undefined) {
      const twoFactorEnabled = user.twoFactorEnabled ?? (await twoFactor.enabled(user.id));
      // CONTRACT 12: whether the address was proven (the verification cache holds it, voided when it changes).
      answer = JSON.stringify({ user: { ...profiles.presentUser(user), emailVerified: user.emailVerified === true, twoFactorEnabled } });
      if (Object.isFrozen(user) && user.twoFactorEnabled !== undefined) meAnswers.set(user, answer);
    }
    // As res.json would: the same Content-Type (send adds the charset) and body.
    res.set('Content-Type', 'application/json').send(answer);
  };

  const refresh: RequestHandler = async (req, res) => {
    const issued = await auth.refresh(extractToken(req), requestContext(req));
    cookies.set(res, issued);
    res.json({ token: issued.token, expiresIn: issued.expiresIn });
  };

  /** Clears the cookies and ends the request's server session (CONTRACT 3), then answers. */
  async function signedOut(req: Request, res: Response): Promise<void> {
    cookies.clear(res);
    await sessions.end(req, res);
    if (wantsPage(req)) {
      res.redirect(302, withNotice('/auth/login', 'signed_out'));
      return;
    }
    res.json({ success: true });
  }

  const logout: RequestHandler = async (req, res) => {
    const signedIn = req.user && req.authToken && req.tokenClaims ? { user: req.user, token: req.authToken, claims: req.tokenClaims } : null;
    await auth.logout(signedIn, signedIn ? null : extractToken(req), requestContext(req));
    await signedOut(req, res);
  };

  const logoutAll: RequestHandler = async (req, res) => {
    await auth.logoutAll(req.user as Express.User, requestContext(req));
    await signedOut(req, res);
  };

  const seedAdmin: RequestHandler = async (req, res) => {
    res.status(201).json(await auth.seedAdmin(req.body as SeedAdminBody, requestContext(req)));
  };

  /** A refused post of the sign-in or registration form gets its page back (status kept: 400, 401, 403, 409, 429). */
  const formErrorPages = formErrors({ '/login': redrawLogin, '/register': redrawRegister });

  return { renderLogin, loginPage, registerPage, checkRegistration, register, me, refresh, logout, logoutAll, seedAdmin, formErrorPages };
}
