import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Container } from '../container';
import { AppError } from '../http/app-error';
import { wantsPage } from '../http/pages';
import { providerNotice, withNotice, type NoticeCode } from '../http/notices';
import { requestContext } from '../http/request-context';
import { safeRedirect } from '../http/safe-redirect';
import { OAUTH_MESSAGES } from '../oauth/oauth-providers';
import { PROVIDER_LABELS } from '../models/oauth-provider-names';
import { OAUTH_PROVIDERS, type OAuthProviderName } from '../models/oauth-provider-names';
import { LINK_LANDING } from '../sign-in/oauth.strategy';
import { OAUTH_SERVICE_MESSAGES } from '../services/sign-in-methods/oauth.service';
import type { ProviderBody } from '../schemas/oauth.schemas';

/** The notice for a refused link or unlink form post: the refusals the page can name, else a general one. */
function formNotice(err: AppError, body: unknown): NoticeCode {
  if (err.message === OAUTH_SERVICE_MESSAGES.lastMethod) return 'oauth_last_method';
  const provider = (body as { provider?: unknown } | undefined)?.provider;
  if (!(OAUTH_PROVIDERS as readonly unknown[]).includes(provider)) return 'oauth_refused';
  const name = provider as OAuthProviderName;
  if (err.message === OAUTH_SERVICE_MESSAGES.notLinked(PROVIDER_LABELS[name])) return providerNotice(name, 'not_linked');
  if (err.message === OAUTH_MESSAGES.disabled(name)) return providerNotice(name, 'disabled');
  return 'oauth_refused';
}

/** Handlers of /auth/oauth besides the callback (a strategy + the session step do that). */
export function createOAuthController({ oauth, oauthProviders, credentialSet }: Container) {
  /** GET /auth/oauth/:provider: off to the provider, with a state bound to this browser. */
  const start: RequestHandler = async (req, res) => {
    const query = req.query as { redirect?: string };
    res.redirect(302, await oauthProviders.authorizationUrl(req, res, String(req.params.provider), { redirect: safeRedirect(query.redirect) }));
  };

  const accounts: RequestHandler = async (req, res) => {
    res.json({ accounts: await oauth.accounts((req.user as Express.User).id) });
  };

  const link: RequestHandler = async (req, res) => {
    const { provider } = req.body as ProviderBody;
    const user = req.user as Express.User;
    // CONTRACT 18: an unverified account adds no linked provider (the callback refuses it too).
    await credentialSet.assertMayAdd(user.id);
    const redirectUrl = await oauthProviders.authorizationUrl(req, res, provider, { linkUserId: user.id, linkEpoch: user.tokenEpoch });
    if (wantsPage(req)) return res.redirect(302, redirectUrl);
    res.json({ redirectUrl });
  };

  const unlink: RequestHandler = async (req, res) => {
    const { provider } = req.body as ProviderBody;
    await oauth.unlink((req.user as Express.User).id, provider, requestContext(req));
    if (wantsPage(req)) return res.redirect(302, withNotice(LINK_LANDING, providerNotice(oauthProviders.known(provider), 'unlinked')));
    res.json({ success: true });
  };

  /** The profile page's forms (link, unlink): a refused post goes back to the page with the reason; JSON clients get the error. */
  const profileFormErrors: ErrorRequestHandler = (err, req, res, next) => {
    if (!(err instanceof AppError) || err.status >= 500 || req.method !== 'POST' || !wantsPage(req)) return next(err);
    res.redirect(302, withNotice(LINK_LANDING, formNotice(err, req.body)));
  };

  return { start, accounts, link, unlink, profileFormErrors };
}
