import type { Request, RequestHandler, Response } from 'express';
import type { Container } from '../../container';
import { renderForm } from '../../http/pages';
import { ACCOUNT_SECTIONS, accountNav, type AccountSection } from '../../http/account-sections';
import { NAME_MAX_LENGTH, PASSWORD_LENGTH, USERNAME_LENGTH } from '../../util/account-text';
import { BUILT_IN_CONTROLS, profileFormValues, visibleFields, type PageField } from './profile-page-fields';
import { createPasskeysCard } from './passkeys-card';
import { createApiKeysCard } from './api-keys-card';
import { createConnectedAppsCard } from './connected-apps-card';

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

/**
 * The account center (CONTRACT 6): `/admin/profile` and its sections, each drawn with only the cards it holds
 * (views/admin/account/<section>.ejs) under one section navigation. A refused form post redraws its own section
 * through `draw`, so its errors appear next to the card that sent them.
 */
export function createAccountCenter(container: Container) {
  const { userAdmin, profiles, userSessions, oauth, lifecycle, twoFactor } = container;
  const customFields = visibleFields(profiles.definition.fields);
  const passkeysCard = createPasskeysCard(container);
  const apiKeysCard = createApiKeysCard(container);
  const connectedAppsCard = createConnectedAppsCard(container);
  const owner = (req: Request) => req.user as Express.User;

  /** What each section's cards are drawn with; `values` is the details form's, and a redraw may bring its own. */
  const sections: Record<AccountSection, (req: Request) => Promise<Record<string, unknown>>> = {
    profile: async (req) => {
      const [user, profile, accountCards] = await Promise.all([userAdmin.get(owner(req).id), profiles.get(owner(req).id), lifecycle.cardsView(owner(req).id)]);
      return { user, accountCards, nameFields: NAME_FIELDS, profileControls: BUILT_IN_CONTROLS, customFields, values: { ...profileFormValues(profile), ...user } };
    },
    security: async (req) => {
      const [twoFactorStatus, passkeys, linked] = await Promise.all([twoFactor.status(owner(req).id), passkeysCard.view(owner(req).id), oauth.linkedAccountsView(owner(req).id)]);
      return { passwordFields: PASSWORD_FIELDS, twoFactorStatus, passkeys, linked };
    },
    sessions: async (req) => ({ sessions: await userSessions.list(owner(req).id, req.tokenClaims?.sid) }),
    apps: async (req) => {
      const [connectedApps, apiKeys] = await Promise.all([connectedAppsCard.view(owner(req).id), apiKeysCard.view(owner(req))]);
      return { connectedApps, apiKeys };
    },
    data: async () => ({}),
  };

  async function draw(section: AccountSection, req: Request, res: Response, status: number, state: Record<string, unknown>): Promise<void> {
    const data = await sections[section](req);
    renderForm(res, `admin/account/${section}`, status, { title: ACCOUNT_SECTIONS[section].title, accountNav: accountNav(section), ...data, ...state });
  }

  /** The GET of a section's page. */
  const show = (section: AccountSection): RequestHandler => (req, res) => draw(section, req, res, 200, {});

  return { draw, show };
}

export type AccountCenter = ReturnType<typeof createAccountCenter>;
