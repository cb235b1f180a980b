import type { Request, RequestHandler, Response } from 'express';
import type { Container } from '../../container';
import { AppError } from '../../http/app-error';
import { adminAudit } from '../../http/request-context';
import { formPost, renderForm, type FormRedraw } from '../../http/pages';
import { withNotice } from '../../http/notices';
import { fieldErrors, parseOrThrow } from '../../http/validate';
import { EMAIL_MAX_LENGTH, NAME_MAX_LENGTH, PASSWORD_LENGTH, USERNAME_LENGTH } from '../../util/account-text';
import { USERS_ENDPOINTS } from '../../schemas/users.schemas';
import { USER_ADMIN_MESSAGES, type AdminUserChanges, type AdminUserCreate, type UserListQuery } from '../../services/accounts/user-admin.service';
import { ROLES } from '../../models';
import { BUILT_IN_CONTROLS, keptProfileValues, profileFormValues, readProfileForm, visibleFields, type PageField } from './profile-page-fields';
import { checkbox, deletePost, formFields, lastValue, pageOf } from './form-input';

const roleOptions = ROLES.map((role) => ({ value: role, label: role }));

const NEW_USER_FIELDS: readonly PageField[] = [
  { name: 'email', label: 'Email', type: 'email', autocomplete: 'off', required: true, maxlength: EMAIL_MAX_LENGTH },
  {
    name: 'password', label: 'Password', type: 'password', autocomplete: 'new-password', minlength: PASSWORD_LENGTH.min, maxlength: PASSWORD_LENGTH.max,
    hint: `${PASSWORD_LENGTH.min}–${PASSWORD_LENGTH.max} characters, not a common or easily guessed password. Leave empty for a user who signs in with a code, a link or a provider.`, strength: true,
  },
  { name: 'username', label: 'Username', type: 'text', autocomplete: 'off', minlength: USERNAME_LENGTH.min, maxlength: USERNAME_LENGTH.max, hint: 'Leave empty to derive it from the email.' },
  { name: 'firstName', label: 'First name', type: 'text', autocomplete: 'off', maxlength: NAME_MAX_LENGTH },
  { name: 'lastName', label: 'Last name', type: 'text', autocomplete: 'off', maxlength: NAME_MAX_LENGTH },
  { name: 'role', label: 'Role', type: 'select', options: roleOptions },
];

const EDIT_USER_FIELDS: readonly PageField[] = [
  { name: 'username', label: 'Username', type: 'text', autocomplete: 'off', required: true, minlength: USERNAME_LENGTH.min, maxlength: USERNAME_LENGTH.max },
  { name: 'firstName', label: 'First name', type: 'text', autocomplete: 'off', maxlength: NAME_MAX_LENGTH },
  { name: 'lastName', label: 'Last name', type: 'text', autocomplete: 'off', maxlength: NAME_MAX_LENGTH },
  { name: 'role', label: 'Role', type: 'select', options: roleOptions },
  { name: 'active', label: 'Active (may sign in)', type: 'checkbox' },
  { name: 'emailVerified', label: 'Email address verified', type: 'checkbox', hint: 'Tick when you know the address is theirs. An unverified account that has a password loses it when the owner of the address signs in by code, link or provider.' },
];

/** Pages to offer: past the counting limit, one more than the counted ones (the pager's "Next" goes on from there). */
function pageCount({ total, totalExact, limit }: { total: number; totalExact: boolean; limit: number }): number {
  return Math.max(1, totalExact ? Math.ceil(total / limit) : Math.floor(total / limit) + 1);
}

const DELETE_CONFIRM = 'Tick the box to confirm the deletion';

/** Puts a service's conflict next to the field it is about (CONTRACT 6: "errors next to the field"). */
function atField(err: unknown, field: (message: string) => string | null): never {
  if (err instanceof AppError && err.status === 409) {
    const name = field(err.message);
    if (name) throw new AppError(409, err.message, { errors: { [name]: err.message } });
  }
  throw err;
}

/** Pages of /admin/users (`manage:users`): the same user-admin and profile services as /api/users. */
export function createUsersPageController({ userAdmin, profiles, userSessions, twoFactor, apiKeys, passkeys }: Container) {
  const customFields = visibleFields(profiles.definition.fields);

  const list: RequestHandler = async (req, res) => {
    const { query, error } = pageOf<UserListQuery>(USERS_ENDPOINTS.list.query, req.query);
    const result = await userAdmin.list(query);
    res.render('admin/users/list', { title: 'Users', ...result, filters: query, error, pages: pageCount(result) });
  };

  function drawNew(res: Response, status: number, state: Record<string, unknown>) {
    renderForm(res, 'admin/users/new', status, { title: 'New user', fields: NEW_USER_FIELDS, ...state });
  }

  const newForm: RequestHandler = (_req, res) => drawNew(res, 200, { values: { role: 'viewer' } });
  const redrawNew: FormRedraw = (req, res, failure) => drawNew(res, failure.status, { ...failure, values: req.body as Record<string, unknown> });

  const create = formPost(async (req, res) => {
    const input = (await parseOrThrow(USERS_ENDPOINTS.create.body, formFields(req.body, ['email', 'password', 'username', 'firstName', 'lastName', 'role']))) as AdminUserCreate;
    const user = await userAdmin.create(input, adminAudit(req)).catch((err: unknown) =>
      atField(err, (message) => (message === USER_ADMIN_MESSAGES.duplicate ? 'email' : null)),
    );
    res.redirect(303, withNotice(`/admin/users/${encodeURIComponent(user.id)}/edit`, 'user_created'));
  }, redrawNew);

  async function drawEdit(req: Request, res: Response, status: number, state: Record<string, unknown>) {
    const id = req.params.id as string;
    // The Keys group reads the user's API keys and passkeys: listed for the admin to see, managed by their owner.
    const [user, profile, sessions, twoFactorStatus, userApiKeys, userPasskeys] = await Promise.all([
      userAdmin.get(id), profiles.get(id), userSessions.list(id, req.tokenClaims?.sid), twoFactor.status(id), apiKeys.list(id), passkeys.available ? passkeys.list(id) : null,
    ]);
    const values = (state.values as Record<string, unknown> | undefined) ?? { ...profileFormValues(profile), ...user };
    renderForm(res, 'admin/users/edit', status, {
      title: `Edit ${user.email}`, user, fields: EDIT_USER_FIELDS, profileControls: BUILT_IN_CONTROLS, customFields, sessions, twoFactorStatus, keys: { apiKeys: userApiKeys, passkeys: userPasskeys }, ...state, values,
    });
  }

  const editForm: RequestHandler = (req, res) => drawEdit(req, res, 200, {});
  const redrawEdit: FormRedraw = (req, res, failure) =>
    drawEdit(req, res, failure.status, { ...failure, values: { ...keptProfileValues(profiles, req.body as Record<string, unknown>), active: lastValue(req.body, 'active') === 'on', emailVerified: lastValue(req.body, 'emailVerified') === 'on' } });

  /**
   * Checks every field first (standard and custom), then saves the account, whose last-admin and username rules
   * can still refuse it, and the profile in the same transaction: a refused or failed post changes nothing.
   */
  const update = formPost(async (req, res) => {
    const id = req.params.id as string;
    const body = req.body as Record<string, unknown>;
    const fields = formFields(body, ['username', 'firstName', 'lastName', 'role'], { empty: null });
    const account = USERS_ENDPOINTS.update.body.safeParse({ ...fields, active: checkbox(body, 'active'), emailVerified: checkbox(body, 'emailVerified') });
    const stored = await profiles.get(id);
    const profile = readProfileForm(profiles, body);
    const errors = { ...(account.success ? {} : fieldErrors(account.error)), ...profile.errors };
    if (!account.success || Object.keys(errors).length > 0) throw AppError.validation(errors);
    profiles.checkUpdate(stored.customData, profile.changes);
    const changes = account.data as AdminUserChanges;
    const profileSave = profiles.staged(id, profile.changes, adminAudit(req));
    await userAdmin.update(id, changes, adminAudit(req), profileSave.write).catch((err: unknown) =>
      atField(err, (message) => {
        if (message === USER_ADMIN_MESSAGES.duplicate) return 'username';
        if (message === USER_ADMIN_MESSAGES.lastAdmin) return changes.active === false ? 'active' : 'role';
        return null;
      }),
    );
    await profileSave.finish();
    res.redirect(303, withNotice(`/admin/users/${encodeURIComponent(id)}/edit`, 'user_saved'));
  }, redrawEdit);

  const remove = deletePost({ path: '/admin/users', gone: 'user_gone' }, async (req, res) => {
    if (lastValue(req.body, 'confirm') !== 'on') throw AppError.validation({ confirm: DELETE_CONFIRM });
    const user = await userAdmin.get(req.params.id as string);
    await userAdmin.remove(user.id, adminAudit(req)).catch((err: unknown) => atField(err, () => 'confirm'));
    res.redirect(303, withNotice('/admin/users', 'user_deleted'));
  }, (req, res, failure) => drawEdit(req, res, failure.status, { error: failure.errors.confirm ? 'The user was not deleted.' : failure.error, errors: failure.errors }));

  /** The edit page's "Sign out" beside one session of the user, and "Sign out all sessions". */
  const revokeSession: RequestHandler = async (req, res) => {
    const user = await userAdmin.get(req.params.id as string);
    const ended = await userSessions.revoke(user.id, String(req.params.sid), adminAudit(req));
    res.redirect(303, withNotice(`/admin/users/${encodeURIComponent(user.id)}/edit`, ended ? 'session_revoked' : 'session_gone'));
  };

  const revokeAllSessions: RequestHandler = async (req, res) => {
    const user = await userAdmin.get(req.params.id as string);
    await userSessions.revokeAll(user.id, undefined, adminAudit(req));
    res.redirect(303, withNotice(`/admin/users/${encodeURIComponent(user.id)}/edit`, 'user_sessions_revoked'));
  };

  return { list, newForm, create, editForm, update, remove, revokeSession, revokeAllSessions };
}
