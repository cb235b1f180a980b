import type { RequestHandler } from 'express';
import type { Container } from '../../container';
import { AppError } from '../../http/app-error';
import { requestContext } from '../../http/request-context';
import { withNotice } from '../../http/notices';
import { accountPage } from '../../http/account-sections';
import { SCOPE_WORDS } from '../oidc-interaction.controller';

/**
 * The "Connected applications" card of /admin/profile/apps (CONTRACT 14): the applications the user let sign
 * them in, and Remove, which ends that application's tokens. Removing only takes power away: no step-up.
 */
export function createConnectedAppsCard({ oidcConsent }: Container) {
  const remove: RequestHandler = async (req, res) => {
    const user = req.user as Express.User;
    const removed = await oidcConsent.revoke(user, String(req.params.clientId), requestContext(req)).then(
      () => true,
      (err: unknown) => {
        if (err instanceof AppError && err.status === 404) return false;
        throw err;
      },
    );
    res.redirect(303, withNotice(accountPage('apps'), removed ? 'connected_app_revoked' : 'connected_app_gone'));
  };

  /** The user's applications, each scope in the words the consent page used. */
  async function view(userId: string) {
    const apps = await oidcConsent.connectedApps(userId);
    return apps.map((app) => ({ ...app, allowed: app.scopes.map((scope) => SCOPE_WORDS[scope] ?? scope) }));
  }

  return { view, remove };
}
