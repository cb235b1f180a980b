import type { RequestHandler, Response } from 'express';
import type { Container } from '../../container';
import { adminAudit } from '../../http/request-context';
import { coerceBoolean } from '../../http/form-values';
import { keptValues, type FormRedraw } from '../../http/pages';
import { withNotice } from '../../http/notices';
import { parseOrThrow } from '../../http/validate';
import { ROLES } from '../../models';
import { SSO_ENDPOINTS, type SsoProviderChanges, type SsoProviderInput } from '../../schemas/sso.schemas';

/** The providers page; where a page asking for a step-up comes back to. */
export const SSO_SETTINGS_PAGE = '/admin/settings/sso';

const MESSAGES = { refused: 'Not saved: correct the marked fields.' } as const;

/** The API's field names (as the schema's errors name them) and the form's. */
const FORM_FIELDS: Readonly<Record<string, string>> = {
  'oidc.issuer': 'oidcIssuer',
  'oidc.clientId': 'oidcClientId',
  'oidc.clientSecret': 'oidcClientSecret',
  oidc: 'oidcIssuer',
  'saml.metadataXml': 'samlMetadataXml',
  'saml.entryPoint': 'samlEntryPoint',
  'saml.idpEntityId': 'samlIdpEntityId',
  'saml.certificate': 'samlCertificate',
  saml: 'samlMetadataXml',
};

function formErrorsOf(errors: Record<string, string>): Record<string, string> {
  const named: Record<string, string> = {};
  for (const [field, message] of Object.entries(errors)) {
    const form = FORM_FIELDS[field] ?? (field.startsWith('domains') ? 'domains' : field);
    named[form] ??= message;
  }
  return named;
}

const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);

/** The SAML part of a form: metadata XML when pasted, else the three explicit fields when any is given. */
function samlFrom(body: Record<string, unknown>) {
  const metadataXml = text(body.samlMetadataXml);
  if (metadataXml) return { metadataXml };
  const explicit = { entryPoint: text(body.samlEntryPoint), idpEntityId: text(body.samlIdpEntityId), certificate: text(body.samlCertificate) };
  return Object.values(explicit).some(Boolean) ? explicit : undefined;
}

/** A form post as the API's body: the page and the API accept exactly the same values. */
function inputFrom(body: Record<string, unknown>, protocol: unknown) {
  const oidc = { issuer: text(body.oidcIssuer), clientId: text(body.oidcClientId), clientSecret: typeof body.oidcClientSecret === 'string' && body.oidcClientSecret !== '' ? body.oidcClientSecret : undefined };
  return {
    name: body.name,
    domains: typeof body.domains === 'string' ? body.domains.split(/[\s,]+/).filter(Boolean) : body.domains,
    enforce: coerceBoolean(body.enforce),
    autoCreate: coerceBoolean(body.autoCreate),
    defaultRole: body.defaultRole,
    ...(protocol === 'oidc' && Object.values(oidc).some(Boolean) ? { oidc } : {}),
    ...(protocol === 'saml' ? { saml: samlFrom(body) } : {}),
  };
}

/**
 * `/admin/settings/sso` (CONTRACT 15): the providers with the service's URLs to copy into each one, a form to
 * add one, and per provider an edit page and Delete. Every change goes through the API's schema and service.
 */
export function createSsoSettingsPage(container: Container) {
  const { ssoProviders } = container;
  const roles = ROLES.map((role) => ({ value: role, label: role }));

  async function drawList(res: Response, status: number, state: { values?: Record<string, unknown>; errors?: Record<string, string>; error?: string | null }) {
    res.status(status).render('admin/settings/sso', {
      title: 'Single sign-on',
      providers: await ssoProviders.list(),
      roles,
      values: keptValues(state.values ?? { protocol: 'oidc', defaultRole: 'viewer' }),
      errors: state.errors ?? {},
      error: state.error ?? null,
    });
  }

  async function drawEdit(res: Response, id: string, status: number, state: { values?: Record<string, unknown>; errors?: Record<string, string>; error?: string | null }) {
    const provider = await ssoProviders.get(id);
    const values = state.values ?? {
      name: provider.name,
      domains: provider.domains.join(', '),
      enforce: provider.enforce,
      autoCreate: provider.autoCreate,
      defaultRole: provider.defaultRole,
      oidcIssuer: provider.oidc?.issuer,
      oidcClientId: provider.oidc?.clientId,
      samlEntryPoint: provider.saml?.entryPoint,
      samlIdpEntityId: provider.saml?.idpEntityId,
    };
    res.status(status).render('admin/settings/sso-edit', { title: `Edit ${provider.name}`, provider, roles, values: keptValues(values), errors: state.errors ?? {}, error: state.error ?? null });
  }

  const list: RequestHandler = (_req, res) => drawList(res, 200, {});

  const edit: RequestHandler = (req, res) => drawEdit(res, String(req.params.id), 200, {});

  const add: RequestHandler = async (req, res) => {
    const body = req.body as Record<string, unknown>;
    const input: SsoProviderInput = await parseOrThrow(SSO_ENDPOINTS.create.body, { slug: text(body.slug) ?? body.slug, protocol: body.protocol, ...inputFrom(body, body.protocol) });
    await ssoProviders.create(input, adminAudit(req));
    res.redirect(303, withNotice(SSO_SETTINGS_PAGE, 'sso_provider_saved'));
  };

  const save: RequestHandler = async (req, res) => {
    const id = String(req.params.id);
    const current = await ssoProviders.get(id);
    const changes: SsoProviderChanges = await parseOrThrow(SSO_ENDPOINTS.update.body, inputFrom(req.body as Record<string, unknown>, current.protocol));
    await ssoProviders.update(id, changes, adminAudit(req));
    res.redirect(303, withNotice(SSO_SETTINGS_PAGE, 'sso_provider_saved'));
  };

  const remove: RequestHandler = async (req, res) => {
    await ssoProviders.remove(String(req.params.id), adminAudit(req));
    res.redirect(303, withNotice(SSO_SETTINGS_PAGE, 'sso_provider_deleted'));
  };

  const failure = (errors: Record<string, string>, error: string) => {
    const fields = formErrorsOf(errors);
    return { errors: fields, error: Object.keys(fields).length > 0 ? MESSAGES.refused : error };
  };
  const redrawAdd: FormRedraw = (req, res, refused) => drawList(res, refused.status, { values: req.body as Record<string, unknown>, ...failure(refused.errors, refused.error) });
  const redrawEdit: FormRedraw = (req, res, refused) => drawEdit(res, String(req.params.id), refused.status, { values: req.body as Record<string, unknown>, ...failure(refused.errors, refused.error) });

  return { list, edit, add, save, remove, redrawAdd, redrawEdit };
}
