import { z } from 'zod';
import type { Request, RequestHandler } from 'express';
import type { Container } from '../../container';
import { AppError } from '../../http/app-error';
import { adminAudit, requestContext } from '../../http/request-context';
import { formPost, type FormRedraw } from '../../http/pages';
import { withNotice } from '../../http/notices';
import { fieldErrors, parseOrThrow } from '../../http/validate';
import { newPassword, signInPassword } from '../../schemas/input-rules';
import { USERS_ENDPOINTS } from '../../schemas/users.schemas';
import { USER_ADMIN_MESSAGES, type AdminUserChanges } from '../../services/accounts/user-admin.service';
import { keptProfileValues, readProfileForm } from './profile-page-fields';
import { accountPage } from '../../http/account-sections';
import { formFields } from './form-input';
import type { AccountCenter } from './account-center';
import { passwordActor } from '../account.controller';

const passwordChange = z.strictObject({ currentPassword: signInPassword, newPassword });

/**
 * The forms of the account center's details (`/admin/profile`), password (`/admin/profile/security`) and sessions
 * (`/admin/profile/sessions`) cards: each answers on its own section's page.
 */
export function createProfilePageController(container: Container, center: AccountCenter) {
  const { userAdmin, profiles, account, tokens, userSessions, cookies } = container;
  const self = (req: Request) => (req.user as Express.User).id;

  const redrawProfile: FormRedraw = (req, res, failure) => center.draw('profile', req, res, failure.status, { ...failure, values: keptProfileValues(profiles, req.body as Record<string, unknown>) });

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
    res.redirect(303, withNotice(accountPage('profile'), 'profile_saved'));
  }, redrawProfile);

  // A blocked account (429) says why; the guess was not checked.
  const redrawPassword: FormRedraw = (req, res, failure) =>
    center.draw('security', req, res, failure.status, { ...failure, error: failure.status === 429 ? `Your password was not changed. ${failure.error}` : 'Your password was not changed.' });

  /** Every other session of the user ends; this browser's goes on with a token under the new epoch. */
  const changePassword = formPost(async (req, res) => {
    const input = await parseOrThrow(passwordChange, { currentPassword: req.body?.currentPassword ?? '', newPassword: req.body?.newPassword ?? '' });
    const { user, session } = await account.changePassword(passwordActor(req), input.currentPassword, input.newPassword, requestContext(req));
    cookies.set(res, await tokens.issue(user, session));
    res.redirect(303, withNotice(accountPage('security'), 'password_changed'));
  }, redrawPassword);

  /** "Sign out" beside one of the user's other sessions (a step-up route: the router asks for a recent sign-in first). */
  const revokeSession: RequestHandler = async (req, res) => {
    const ended = await userSessions.revoke(self(req), String(req.params.sid), adminAudit(req));
    res.redirect(303, withNotice(accountPage('sessions'), ended ? 'session_revoked' : 'session_gone'));
  };

  const revokeOtherSessions: RequestHandler = async (req, res) => {
    await userSessions.revokeAll(self(req), req.tokenClaims?.sid, adminAudit(req));
    res.redirect(303, withNotice(accountPage('sessions'), 'sessions_revoked'));
  };

  return { update, changePassword, revokeSession, revokeOtherSessions };
}
