import { Op, type Sequelize } from 'sequelize';
import type { Models } from '../../models';
import type { ActivityService } from '../operations/activity.service';
import type { RequestContext } from '../../http/request-context';
import { AppError } from '../../http/app-error';
import { destroyGrants } from './adapter';

/** An application the user let sign them in, as `GET /auth/connected-apps` lists it. */
export interface ConnectedApp {
  clientId: string;
  name: string;
  scopes: string[];
  grantedAt: Date;
}

const scopesOf = (scope: string) => scope.split(' ').filter(Boolean);

/**
 * Consent (CONTRACT 14): what a user allowed each application, remembered per user and client beyond any one
 * session, and the grants that tie an application's tokens to the sign-in session they came from.
 */
export function createOidcConsentService(deps: { sequelize: Sequelize; models: Models; activity: ActivityService }) {
  const { sequelize, models, activity } = deps;

  /** Whether the user need not be asked: a first-party client, or every requested scope allowed before. */
  async function covered(userId: string, clientId: string, requested: string[]): Promise<boolean> {
    const client = await models.OAuthClient.findByPk(clientId);
    if (client?.firstParty) return true;
    const consent = await models.OAuthConsent.findOne({ where: { userId, clientId } });
    const allowed = new Set(consent ? scopesOf(consent.scope) : []);
    return requested.every((scope) => allowed.has(scope));
  }

  /** Records the grant of a sign-in session and, for a consent the user gave, remembers its scopes. */
  async function granted(entry: { userId: string; email: string; clientId: string; grantId: string; sessionId: string; scopes: string[]; asked: boolean }, context: RequestContext): Promise<void> {
    const { userId, clientId, grantId, sessionId } = entry;
    await models.OidcGrant.upsert({ grantId, userId, clientId, sessionId });
    if (!entry.asked) return;
    const consent = await models.OAuthConsent.findOne({ where: { userId, clientId } });
    const scope = [...new Set([...(consent ? scopesOf(consent.scope) : []), ...entry.scopes])].join(' ');
    await models.OAuthConsent.upsert({ userId, clientId, scope });
    await activity.record({ action: 'oauth.consent_granted', userId, email: entry.email, details: { clientId, scopes: entry.scopes } }, context);
  }

  /**
   * The applications the user let sign them in: every consent, and every live grant of an application that asked
   * none (a first-party one), so each application holding the user's tokens is listed and can be removed. A
   * grant-only application's scopes are those its latest grant holds.
   */
  async function connectedApps(userId: string): Promise<ConnectedApp[]> {
    const [consents, grants] = await Promise.all([
      models.OAuthConsent.findAll({ where: { userId } }),
      models.OidcGrant.findAll({ attributes: ['grantId', 'clientId', 'createdAt'], where: { userId } }),
    ]);
    const consented = new Set(consents.map((consent) => consent.clientId));
    const unasked = grants.filter((grant) => !consented.has(grant.clientId));
    const [clients, grantRows] = await Promise.all([
      models.OAuthClient.findAll({ where: { clientId: [...new Set([...consented, ...unasked.map((grant) => grant.clientId)])] } }),
      unasked.length ? models.OidcPayload.findAll({ where: { model: 'Grant', id: unasked.map((grant) => grant.grantId), [Op.or]: [{ expiresAt: null }, { expiresAt: { [Op.gt]: new Date() } }] } }) : [],
    ]);
    const names = new Map(clients.map((client) => [client.clientId, client.name]));
    const apps = new Map<string, ConnectedApp>();
    for (const consent of consents) apps.set(consent.clientId, { clientId: consent.clientId, name: '', scopes: scopesOf(consent.scope), grantedAt: consent.updatedAt });
    const liveGrants = new Map(grantRows.map((row) => [row.id, row]));
    for (const grant of unasked) {
      const row = liveGrants.get(grant.grantId);
      const earlier = apps.get(grant.clientId);
      if (!row || (earlier && earlier.grantedAt >= grant.createdAt)) continue;
      const scope = (JSON.parse(row.payload) as { openid?: { scope?: string } }).openid?.scope ?? '';
      apps.set(grant.clientId, { clientId: grant.clientId, name: '', scopes: scopesOf(scope), grantedAt: grant.createdAt });
    }
    return [...apps.values()]
      .filter((app) => names.has(app.clientId))
      .map((app) => ({ ...app, name: names.get(app.clientId) as string }))
      .sort((a, b) => b.grantedAt.getTime() - a.grantedAt.getTime());
  }

  /** Forgets the consent and ends every grant and token of the application for the user. */
  async function revoke(user: { id: string; email: string }, clientId: string, context: RequestContext): Promise<void> {
    const removed = await sequelize.transaction(async (transaction) => {
      const grants = await models.OidcGrant.findAll({ attributes: ['grantId'], where: { userId: user.id, clientId }, transaction });
      await destroyGrants(models, grants.map((grant) => grant.grantId), { transaction });
      await models.OidcGrant.destroy({ where: { userId: user.id, clientId }, transaction });
      // A first-party application holds grants without a consent: ending those is a removal too.
      return grants.length + (await models.OAuthConsent.destroy({ where: { userId: user.id, clientId }, transaction }));
    });
    if (removed === 0) throw AppError.notFound();
    await activity.record({ action: 'oauth.consent_revoked', userId: user.id, email: user.email, details: { clientId } }, context);
  }

  return { covered, granted, connectedApps, revoke };
}

export type OidcConsentService = ReturnType<typeof createOidcConsentService>;
