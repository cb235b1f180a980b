import type { Request, RequestHandler, Response } from 'express';
import type { Container } from '../../container';
import { AppError } from '../../http/app-error';
import { adminAudit } from '../../http/request-context';
import { formPost, keptValues, renderForm, type FormRedraw } from '../../http/pages';
import { withNotice } from '../../http/notices';
import { fieldErrors } from '../../http/validate';
import { oauthClientCreate, oauthClientUpdate } from '../../schemas/oauth-clients.schemas';
import { CLIENT_DEFAULTS, OIDC_GRANT_TYPES, OIDC_SCOPES, type ClientView } from '../../services/oidc-provider/oauth-clients.service';
import { checkbox, formFields, lastValue } from './form-input';

/** The applications page; where a page asking for a step-up comes back to. */
export const APPLICATIONS_PAGE = '/admin/settings/applications';

const VIEWS = { list: 'admin/settings/applications', edit: 'admin/settings/application', secret: 'admin/settings/application-secret' } as const;
const MESSAGES = {
  listTitle: 'Applications',
  editTitle: 'Edit application',
  notCreated: 'The application was not added: correct the marked fields.',
  notSaved: 'Not saved: correct the marked fields.',
  notDeleted: 'The application was not deleted.',
  confirm: 'Tick the box to confirm the deletion',
} as const;

const pageOf = (clientId: string) => `${APPLICATIONS_PAGE}/${encodeURIComponent(clientId)}`;

/** A textarea of URIs, one a line, as the list the API takes. */
function lines(value: unknown): string[] | undefined {
  if (typeof value !== 'string') return undefined;
  return value.split(/\r?\n/).map((line) => line.trim()).filter(Boolean);
}

/** Every ticked value of a group of checkboxes of one name. */
function ticked(body: Record<string, unknown>, name: string): string[] {
  const value = body[name];
  return (Array.isArray(value) ? value : value === undefined ? [] : [value]).filter((item): item is string => typeof item === 'string');
}

/** The form as the JSON API's body: the same schema judges page and API alike. */
function inputOf(body: Record<string, unknown>, creating: boolean): Record<string, unknown> {
  return {
    ...formFields(body, ['name']),
    redirectUris: lines(lastValue(body, 'redirectUris')) ?? [],
    postLogoutRedirectUris: lines(lastValue(body, 'postLogoutRedirectUris')) ?? [],
    firstParty: checkbox(body, 'firstParty') ?? false,
    allowedScopes: ticked(body, 'allowedScopes'),
    grantTypes: ticked(body, 'grantTypes'),
    ...(creating ? { public: checkbox(body, 'public') ?? false } : {}),
  };
}

/** An error of one URI (`redirectUris.2`) shown at its field, naming the line. */
function formErrorsOf(errors: Record<string, string>): Record<string, string> {
  const shown: Record<string, string> = {};
  for (const [key, message] of Object.entries(errors)) {
    const [field, index] = key.split('.');
    shown[field] ??= index === undefined ? message : `line ${Number(index) + 1}: ${message}`;
  }
  return shown;
}

/** What the form draws for an application as stored, or for a refused post's typed values. */
function formValues(source: ClientView | Record<string, unknown>): Record<string, unknown> {
  const list = (value: unknown) => (Array.isArray(value) ? value.join('\n') : value);
  const isClient = 'clientId' in source;
  return {
    name: source.name,
    redirectUris: list(source.redirectUris),
    postLogoutRedirectUris: list(source.postLogoutRedirectUris),
    public: isClient ? source.public : checkbox(source, 'public') === true,
    firstParty: isClient ? source.firstParty : checkbox(source, 'firstParty') === true,
    allowedScopes: isClient ? source.allowedScopes : ticked(source, 'allowedScopes'),
    grantTypes: isClient ? source.grantTypes : ticked(source, 'grantTypes'),
  };
}

/**
 * `/admin/settings/applications` (CONTRACT 14): the OpenID Provider's registered applications, listed, added,
 * changed and deleted through the same service and schemas as `/api/oauth-clients`. A secret is shown on the
 * answer to the post that made it (no-store), never through a redirect, and never again.
 */
export function createApplicationsPage({ oauthClients }: Container) {
  const choices = { scopes: OIDC_SCOPES, grantTypes: OIDC_GRANT_TYPES };

  async function drawList(res: Response, status: number, state: { values?: Record<string, unknown>; errors?: Record<string, string>; error?: string | null }) {
    renderForm(res, VIEWS.list, status, { title: MESSAGES.listTitle, clients: await oauthClients.list(), choices, ...state, values: state.values ?? CLIENT_DEFAULTS });
  }

  async function drawEdit(req: Request, res: Response, status: number, state: { values?: Record<string, unknown>; errors?: Record<string, string>; error?: string | null }) {
    const client = await oauthClients.get(String(req.params.id));
    renderForm(res, VIEWS.edit, status, { title: MESSAGES.editTitle, client, choices, ...state, values: state.values ?? formValues(client) });
  }

  function showSecret(res: Response, made: { client: ClientView; clientSecret: string }, title: string): void {
    res.set('Cache-Control', 'no-store');
    renderForm(res, VIEWS.secret, 200, { title, client: made.client, clientSecret: made.clientSecret });
  }

  const list: RequestHandler = (_req, res) => drawList(res, 200, {});
  const edit: RequestHandler = (req, res) => drawEdit(req, res, 200, {});

  const create = formPost(
    async (req, res) => {
      const parsed = oauthClientCreate.safeParse(inputOf(req.body as Record<string, unknown>, true));
      if (!parsed.success) throw AppError.validation(fieldErrors(parsed.error));
      const made = await oauthClients.create(parsed.data, adminAudit(req));
      if (!made.clientSecret) return res.redirect(303, withNotice(pageOf(made.client.clientId), 'application_created'));
      showSecret(res, { client: made.client, clientSecret: made.clientSecret }, 'Application added');
    },
    (req, res, failure) => drawList(res, failure.status, { values: formValues(keptValues(req.body)), errors: formErrorsOf(failure.errors), error: MESSAGES.notCreated }),
  );

  const redrawEdit: FormRedraw = (req, res, failure) =>
    drawEdit(req, res, failure.status, { values: formValues(keptValues(req.body)), errors: formErrorsOf(failure.errors), error: Object.keys(failure.errors).length ? MESSAGES.notSaved : failure.error });

  const save = formPost(async (req, res) => {
    const parsed = oauthClientUpdate.safeParse(inputOf(req.body as Record<string, unknown>, false));
    if (!parsed.success) throw AppError.validation(fieldErrors(parsed.error));
    const id = String(req.params.id);
    await oauthClients.update(id, parsed.data, adminAudit(req));
    res.redirect(303, withNotice(pageOf(id), 'application_saved'));
  }, redrawEdit);

  const remove = formPost(
    async (req, res) => {
      if (lastValue(req.body, 'confirm') !== 'on') throw AppError.validation({ confirm: MESSAGES.confirm });
      await oauthClients.remove(String(req.params.id), adminAudit(req));
      res.redirect(303, withNotice(APPLICATIONS_PAGE, 'application_deleted'));
    },
    (req, res, failure) => drawEdit(req, res, failure.status, { errors: failure.errors, error: MESSAGES.notDeleted }),
  );

  // Refused (a public application has no secret): the edit page as stored, with the reason.
  const rotateSecret = formPost(async (req, res) => {
    showSecret(res, await oauthClients.rotateSecret(String(req.params.id), adminAudit(req)), 'New secret');
  }, (req, res, failure) => drawEdit(req, res, failure.status, { error: failure.error }));

  return { list, edit, create, save, remove, rotateSecret };
}
