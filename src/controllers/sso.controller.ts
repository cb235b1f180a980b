import type { RequestHandler } from 'express';
import type { Container } from '../container';
import { AppError } from '../http/app-error';
import { wantsPage } from '../http/pages';
import { continueToProvider } from '../middleware/sso-enforcement';
import { withNotice } from '../http/notices';
import { adminAudit } from '../http/request-context';
import { safeRedirect } from '../http/safe-redirect';
import { ssoRefusal } from '../sign-in/sso/oidc.strategy';
import { samlMetadataXml } from '../sign-in/sso/saml.strategy';
import type { SsoProviderChanges, SsoProviderInput } from '../schemas/sso.schemas';

export const SSO_MESSAGES = {
  noProvider: 'No single sign-on for this address',
  unknownProvider: 'Single sign-on provider not found',
} as const;

/** Handlers of /auth/sso (the callbacks are strategies + the session step) and of the admin API /api/sso/providers. */
export function createSsoController({ config, ssoProviders, ssoOidc }: Container) {
  /** POST /auth/sso { email }: to the start of the provider owning the domain (JSON `{ redirectUrl }`, form 302). */
  const startByEmail: RequestHandler = async (req, res) => {
    const { email, redirect } = req.body as { email: string; redirect?: string };
    const provider = await ssoProviders.forEmail(email);
    if (!provider) {
      // The sign-in page's form: back to it with the same words the JSON answer has.
      if (wantsPage(req)) return res.redirect(302, withNotice('/auth/login', 'sso_no_provider'));
      throw AppError.notFound(SSO_MESSAGES.noProvider);
    }
    const target = safeRedirect(redirect);
    const start = `/auth/sso/${provider.slug}${target ? `?redirect=${encodeURIComponent(target)}` : ''}`;
    if (wantsPage(req)) return continueToProvider(res, start);
    res.json({ redirectUrl: `${config.baseUrl}${start}` });
  };

  /**
   * GET /auth/sso/:slug: off to the provider. OIDC here; a SAML provider's AuthnRequest is the SAML strategy's
   * (the next handler in the route line), so this passes it on.
   */
  const start: RequestHandler = async (req, res, next) => {
    const record = await ssoProviders.bySlug(String(req.params.slug));
    if (!record) throw AppError.notFound(SSO_MESSAGES.unknownProvider);
    if (record.row.protocol !== 'oidc') return next();
    const redirect = safeRedirect((req.query as { redirect?: unknown }).redirect) ?? null;
    let url: string;
    try {
      url = await ssoOidc.authorizationUrl(res, record, redirect);
    } catch (err) {
      // The issuer undiscoverable or the stored secret unreadable now (a 400 of discovery or of the provider
      // service): the sign-in page says so, the reason stays in the log. Anything else (the store down) is the app's.
      if (!(err instanceof AppError) || err.status >= 500) throw err;
      req.log?.warn({ err: (err as Error).message, provider: record.row.slug }, 'single sign-on could not start');
      return res.redirect(302, ssoRefusal(record.row.slug, 'unavailable', null, null).redirect as string);
    }
    res.redirect(302, url);
  };

  /** GET /auth/sso/:slug/metadata: the SP metadata an IdP admin imports (SAML providers only). */
  const metadata: RequestHandler = async (req, res) => {
    const record = await ssoProviders.bySlug(String(req.params.slug));
    if (!record || record.row.protocol !== 'saml') throw AppError.notFound(SSO_MESSAGES.unknownProvider);
    res.type('application/samlmetadata+xml').send(samlMetadataXml(config.baseUrl, record.row.slug));
  };

  const list: RequestHandler = async (_req, res) => {
    res.json({ providers: await ssoProviders.list() });
  };
  const get: RequestHandler = async (req, res) => {
    res.json({ provider: await ssoProviders.get(String(req.params.id)) });
  };
  const create: RequestHandler = async (req, res) => {
    res.status(201).json({ provider: await ssoProviders.create(req.body as SsoProviderInput, adminAudit(req)) });
  };
  const update: RequestHandler = async (req, res) => {
    res.json({ provider: await ssoProviders.update(String(req.params.id), req.body as SsoProviderChanges, adminAudit(req)) });
  };
  const remove: RequestHandler = async (req, res) => {
    await ssoProviders.remove(String(req.params.id), adminAudit(req));
    res.status(204).end();
  };

  return { startByEmail, start, metadata, list, get, create, update, remove };
}
