import type { Request, RequestHandler, Response } from 'express';
import type { Container } from '../container';
import { extractToken } from '../sessions/request-token';
import { requestContext } from '../http/request-context';
import { INTERACTION_PATH } from '../services/oidc-provider/provider-paths';

/** The scopes in words, as the consent page names them (and the account center's connected applications). */
export const SCOPE_WORDS: Record<string, string> = {
  openid: 'Know who you are (your account id)',
  profile: 'See your name and username',
  email: 'See your email address and whether it is verified',
  offline_access: 'Stay signed in when you are not using it',
};

/** CONTRACT 8 method → RFC 8176 `amr` value. */
const AMR: Record<string, string> = { password: 'pwd', otp: 'otp', magic_link: 'email', passkey: 'hwk', github: 'fed', google: 'fed' };

/**
 * The provider's interactions drawn by our pages: sign-in goes through the service's own sign-in (every method,
 * the second factor) and comes back; consent asks once per user and application (first-party ones skip it).
 */
export function createOidcInteractionController({ oidc, oidcConsent, tokens, models }: Container) {
  /** The signed-in user of this browser (auth_token), or null. */
  async function signedIn(req: Request) {
    const token = extractToken(req);
    return token ? tokens.verify(token) : null;
  }

  /**
   * Hands the interaction's result to the provider and moves the browser on with a page of ours rather than a
   * redirect: the next hop may redirect on to the application's site, and when this request is (or follows) a
   * form post, the CSP's form-action 'self' has Chromium refuse such a redirect chain.
   */
  async function finish(req: Request, res: Response, result: Record<string, unknown>, mergeWithLastSubmission: boolean) {
    const provider = await oidc.provider();
    const returnTo = new URL(await provider.interactionResult(req, res, result, { mergeWithLastSubmission }));
    res.render('continue', { title: 'Continue signing in', target: `${returnTo.pathname}${returnTo.search}`, message: null, error: null, linkText: 'Continue' });
  }

  function toSignIn(res: Response, uid: string) {
    res.redirect(302, `/auth/login?redirect=${encodeURIComponent(`${INTERACTION_PATH}/${uid}`)}`);
  }

  const show: RequestHandler = async (req, res) => {
    const provider = await oidc.provider();
    const details = await provider.interactionDetails(req, res);
    const current = await signedIn(req);
    // prompt=login and max_age want a sign-in made for this authorization: one newer than the interaction.
    const fresh = !details.prompt.reasons.some((reason) => reason === 'login_prompt' || reason === 'max_age') || (current?.claims.auth_time ?? 0) >= (details.iat ?? 0);
    if (!current || !fresh) {
      // Arriving from the application's site, the SameSite=Strict cookie stays home: one same-site hop first.
      if (req.query.hop !== '1') {
        res.render('continue', { title: 'Continue signing in', target: `${INTERACTION_PATH}/${details.uid}?hop=1`, message: null, error: null });
        return;
      }
      toSignIn(res, details.uid);
      return;
    }
    const { user, claims } = current;
    if (details.prompt.name === 'login' || details.session?.accountId !== user.id) {
      const session = await models.Session.findByPk(claims.sid);
      const method = session?.method ?? 'password';
      await finish(req, res, { login: { accountId: user.id, ts: claims.auth_time, amr: [AMR[method] ?? method] } }, false);
      return;
    }
    const clientId = details.params.client_id as string;
    const requested = (details.params.scope ?? '').split(' ').filter(Boolean);
    if (await oidcConsent.covered(user.id, clientId, requested)) {
      await finishConsent(req, res, details.uid, false);
      return;
    }
    const client = await models.OAuthClient.findByPk(clientId);
    res.set('Cache-Control', 'no-store').render('oidc/consent', {
      title: `Allow ${client?.name ?? 'this application'}?`,
      appName: client?.name ?? clientId,
      scopes: requested.map((scope) => SCOPE_WORDS[scope] ?? scope),
      action: `${INTERACTION_PATH}/${details.uid}/confirm`,
      email: user.email,
    });
  };

  async function finishConsent(req: Request, res: Response, uid: string, asked: boolean) {
    const provider = await oidc.provider();
    const details = await provider.interactionDetails(req, res);
    const current = await signedIn(req);
    if (!current || details.session?.accountId !== current.user.id) {
      toSignIn(res, uid);
      return;
    }
    const clientId = details.params.client_id as string;
    const grant = (details.grantId ? await provider.Grant.find(details.grantId) : undefined) ?? new provider.Grant({ accountId: current.user.id, clientId });
    const missing = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[]; missingResourceScopes?: Record<string, string[]> };
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
    for (const [resource, scopes] of Object.entries(missing.missingResourceScopes ?? {})) grant.addResourceScope(resource, scopes.join(' '));
    const grantId = await grant.save();
    const scopes = (details.params.scope ?? '').split(' ').filter(Boolean);
    await oidcConsent.granted({ userId: current.user.id, email: current.user.email, clientId, grantId, sessionId: current.claims.sid, scopes, asked }, requestContext(req));
    await finish(req, res, { consent: { grantId } }, true);
  }

  const confirm: RequestHandler = async (req, res) => {
    const uid = String(req.params.uid);
    if ((req.body as Record<string, unknown> | undefined)?.decision === 'allow') {
      await finishConsent(req, res, uid, true);
      return;
    }
    await finish(req, res, { error: 'access_denied', error_description: 'The user denied the request' }, false);
  };

  return { show, confirm };
}
