import { z } from 'zod';
import type { Request, RequestHandler, Response } from 'express';
import type { Container } from '../../container';
import { AppError } from '../../http/app-error';
import { adminAudit, requestContext } from '../../http/request-context';
import { formPost, renderForm, type FormRedraw } from '../../http/pages';
import { withNotice } from '../../http/notices';
import { fieldErrors, parseOrThrow } from '../../http/validate';
import { newPassword, signInPassword } from '../../schemas/input-rules';
import { NAME_MAX_LENGTH, PASSWORD_LENGTH, USERNAME_LENGTH } from '../../util/account-text';
import { USERS_ENDPOINTS } from '../../schemas/users.schemas';
import { USER_ADMIN_MESSAGES, type AdminUserChanges } from '../../services/accounts/user-admin.service';
import { BUILT_IN_CONTROLS, keptProfileValues, profileFormValues, readProfileForm, visibleFields, type PageField } from './profile-page-fields';
import { formFields } from './form-input';
import { createPasskeysCard } from './passkeys-card';
import { createApiKeysCard } from './api-keys-card';
import { passwordActor } from '../account.controller';

const NAME_FIELDS: readonly PageField[] = [
  { name: 'username', label: 'Username', type: 'text', autocomplete: 'username', required: true, minlength: USERNAME_LENGTH.min, maxlength: USERNAME_LENGTH.max },
  { name: 'firstName', label: 'First name', type: 'text', autocomplete: 'given-name', maxlength: NAME_MAX_LENGTH },
  { name: 'lastName', label: 'Last name', type: 'text', autocomplete: 'family-name', maxlength: NAME_MAX_LENGTH },
];

const PASSWORD_FIELDS: readonly PageField[] = [
  { name: 'currentPassword', label: 'Current password', type: 'password', autocomplete: 'current-password', required: true },
  {
    name: 'newPassword', label: 'New password', type: 'password', autocomplete: 'new-password', required: true,
    minlength: PASSWORD_LENGTH.min, maxlength: PASSWORD_LENGTH.max, hint: `${PASSWORD_LENGTH.min}–${PASSWORD_LENGTH.max} characters, not a common or easily guessed password. Every other session of yours ends.`, strength: true,
  },
];

const passwordChange = z.strictObject({ currentPassword: signInPassword, newPassword });

/** `/admin/profile`: any signed-in user's own names, profile fields, password and linked accounts. */
export function createProfilePageController(container: Container) {
  const { userAdmin, profiles, account, tokens, userSessions, cookies, oauth, lifecycle } = container;
  const customFields = visibleFields(profiles.definition.fields);
  const self = (req: Request) => (req.user as Express.User).id;
  const passkeysCard = createPasskeysCard(container);
  const apiKeysCard = createApiKeysCard(container);

  async function draw(req: Request, res: Response, status: number, state: Record<string, unknown>) {
    // The Passkeys card brings its own data (its partial reads `passkeys` from res.locals).
    res.locals.passkeys = await passkeysCard.view(self(req));
    res.locals.apiKeys = await apiKeysCard.view(req.user as Express.User);
    const [user, profile, linked, sessions, accountCards, twoFactorStatus] = await Promise.all([
      userAdmin.get(self(req)), profiles.get(self(req)), oauth.linkedAccountsView(self(req)), userSessions.list(self(req), req.tokenClaims?.sid), lifecycle.cardsView(self(req)),
      container.twoFactor.status(self(req)),
    ]);
    const values = (state.values as Record<string, unknown> | undefined) ?? { ...profileFormValues(profile), ...user };
    renderForm(res, 'admin/profile', status, {
      title: 'Your profile', user, nameFields: NAME_FIELDS, passwordFields: PASSWORD_FIELDS, profileControls: BUILT_IN_CONTROLS, customFields, linked, sessions, accountCards, twoFactorStatus, ...state, values,
    });
  }

  const show: RequestHandler = (req, res) => draw(req, res, 200, {});

  const redrawProfile: FormRedraw = (req, res, failure) => draw(req, res, failure.status, { ...failure, values: keptProfileValues(profiles, req.body as Record<string, unknown>) });

  /** Names through the user-admin service (only the name fields: role and active are not the user's to set), with the profile in the same transaction. */
  const update = formPost(async (req, res) => {
    const body = req.body as Record<string, unknown>;
    const names = USERS_ENDPOINTS.update.body.safeParse(formFields(body, ['username', 'firstName', 'lastName'], { empty: null }));
    const stored = await profiles.get(self(req));
    const profile = readProfileForm(profiles, body);
    const errors = { ...(names.success ? {} : fieldErrors(names.error)), ...profile.errors };
    if (!names.success || Object.keys(errors).length > 0) throw AppError.validation(errors);
    // Everything judged before anything is written: a taken username leaves the profile as it was.
    profiles.checkUpdate(stored.customData, profile.changes);
    const profileSave = profiles.staged(self(req), profile.changes, adminAudit(req));
    await userAdmin.update(self(req), names.data as AdminUserChanges, adminAudit(req), profileSave.write).catch((err: unknown) => {
      if (err instanceof AppError && err.message === USER_ADMIN_MESSAGES.duplicate) throw new AppError(409, err.message, { errors: { username: err.message } });
      throw err;
    });
    await profileSave.finish();
    res.redirect(303, withNotice('/admin/profile', 'profile_saved'));
  }, redrawProfile);

  // A blocked account (429) says why; the guess was not checked.
  const redrawPassword: FormRedraw = (req, res, failure) =>
    draw(req, res, failure.status, { ...failure, error: failure.status === 429 ? `Your password was not changed. ${failure.error}` : 'Your password was not changed.' });

  /** Every other session of the user ends; this browser's goes on with a token under the new epoch. */
  const changePassword = formPost(async (req, res) => {
    const input = await parseOrThrow(passwordChange, { currentPassword: req.body?.currentPassword ?? '', newPassword: req.body?.newPassword ?? '' });
    const { user, session } = await account.changePassword(passwordActor(req), input.currentPassword, input.newPassword, requestContext(req));
    cookies.set(res, await tokens.issue(user, session));
    res.redirect(303, withNotice('/admin/profile', 'password_changed'));
  }, redrawPassword);

  /** "Sign out" beside one of the user's other sessions (a step-up route: the router asks for a recent sign-in first). */
  const revokeSession: RequestHandler = async (req, res) => {
    const ended = await userSessions.revoke(self(req), String(req.params.sid), adminAudit(req));
    res.redirect(303, withNotice('/admin/profile', ended ? 'session_revoked' : 'session_gone'));
  };

  const revokeOtherSessions: RequestHandler = async (req, res) => {
    await userSessions.revokeAll(self(req), req.tokenClaims?.sid, adminAudit(req));
    res.redirect(303, withNotice('/admin/profile', 'sessions_revoked'));
  };

  return { draw, show, update, changePassword, revokeSession, revokeOtherSessions };
}
