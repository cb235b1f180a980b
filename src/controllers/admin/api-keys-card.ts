import type { Request, RequestHandler, Response } from 'express';
import type { Container } from '../../container';
import { AppError } from '../../http/app-error';
import { adminAudit } from '../../http/request-context';
import { formPost, renderForm, type FormRedraw } from '../../http/pages';
import { withNotice } from '../../http/notices';
import { accountPage } from '../../http/account-sections';
import { fieldErrors } from '../../http/validate';
import { API_KEY_MAX_DAYS, rolePermissions, type ApiKeyView } from '../../services/security/api-key.service';
import { apiKeyCreate } from '../../schemas/api-keys.schemas';
import type { Permission } from '../../access/permissions';
import { formFields } from './form-input';

/** What views/admin/partials/api-keys.ejs draws: the live keys, and the permissions a new key may be given. */
export interface ApiKeysCard {
  list: ApiKeyView[];
  permissions: Permission[];
  maxDays: number;
}

/** Every value of a repeated form key (checkboxes of one name), as a list. */
function allValues(body: Record<string, unknown>, name: string): string[] {
  const value = body[name];
  return (Array.isArray(value) ? value : value === undefined ? [] : [value]).filter((item): item is string => typeof item === 'string');
}

/**
 * The "API keys" card of /admin/profile/apps (CONTRACT 11): its data for the page, the form that makes a key (a
 * step-up route) and Revoke. A made key is shown on a page of its own, once, never through a redirect (no
 * secret in a URL); a refused form comes back on that page with its errors and typed values.
 */
export function createApiKeysCard({ apiKeys }: Container) {
  const self = (req: Request) => req.user as Express.User;

  async function view(user: Pick<Express.User, 'id' | 'role'>): Promise<ApiKeysCard> {
    return { list: await apiKeys.list(user.id), permissions: rolePermissions(user.role), maxDays: API_KEY_MAX_DAYS };
  }

  function page(req: Request, res: Response, status: number, state: Record<string, unknown>): void {
    res.set('Cache-Control', 'no-store');
    renderForm(res, 'admin/api-key', status, {
      title: 'New API key', appsPage: accountPage('apps'), card: { list: [], permissions: rolePermissions(self(req).role), maxDays: API_KEY_MAX_DAYS }, created: null, ...state,
    });
  }

  const redraw: FormRedraw = (req, res, failure) => {
    const body = req.body as Record<string, unknown>;
    page(req, res, failure.status, { ...failure, values: { name: body.name, expiresInDays: body.expiresInDays }, ticked: allValues(body, 'permissions') });
  };

  /** The form post: the JSON API's rule (apiKeyCreate); no box ticked is a key with no permissions, not all of them. */
  const create = formPost(async (req, res) => {
    const body = req.body as Record<string, unknown>;
    const fields = formFields(body, ['name', 'expiresInDays']);
    if (typeof fields.expiresInDays === 'string' && /^\d{1,6}$/.test(fields.expiresInDays)) fields.expiresInDays = Number(fields.expiresInDays);
    const parsed = apiKeyCreate.safeParse({ ...fields, permissions: allValues(body, 'permissions') });
    if (!parsed.success) throw AppError.validation(fieldErrors(parsed.error));
    const made = await apiKeys.create(self(req), parsed.data, adminAudit(req));
    page(req, res, 200, { title: 'API key created', created: made });
  }, redraw);

  const revoke: RequestHandler = async (req, res) => {
    const revoked = await apiKeys.revoke(self(req).id, String(req.params.id), adminAudit(req));
    res.redirect(303, withNotice(accountPage('apps'), revoked ? 'api_key_revoked' : 'api_key_gone'));
  };

  return { view, create, revoke };
}
