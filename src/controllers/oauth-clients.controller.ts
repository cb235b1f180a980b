import type { Request, RequestHandler } from 'express';
import type { Container } from '../container';
import { adminAudit, requestContext } from '../http/request-context';
import type { ClientInput } from '../services/oidc-provider/oauth-clients.service';

/** Handlers of CONTRACT 14's application endpoints and a user's connected applications; the route schemas have parsed bodies and ids. */
export function createOAuthClientsController({ oauthClients, oidcConsent }: Container) {
  const idOf = (req: Request) => req.params.id as string;

  const create: RequestHandler = async (req, res) => {
    res.status(201).json(await oauthClients.create(req.body as ClientInput, adminAudit(req)));
  };

  const list: RequestHandler = async (_req, res) => {
    res.json({ clients: await oauthClients.list() });
  };

  const get: RequestHandler = async (req, res) => {
    res.json({ client: await oauthClients.get(idOf(req)) });
  };

  const update: RequestHandler = async (req, res) => {
    res.json({ client: await oauthClients.update(idOf(req), req.body as Partial<ClientInput>, adminAudit(req)) });
  };

  const remove: RequestHandler = async (req, res) => {
    await oauthClients.remove(idOf(req), adminAudit(req));
    res.status(204).end();
  };

  const rotateSecret: RequestHandler = async (req, res) => {
    res.json(await oauthClients.rotateSecret(idOf(req), adminAudit(req)));
  };

  const connectedApps: RequestHandler = async (req, res) => {
    res.json({ apps: await oidcConsent.connectedApps((req.user as Express.User).id) });
  };

  const disconnectApp: RequestHandler = async (req, res) => {
    await oidcConsent.revoke(req.user as Express.User, req.params.clientId as string, requestContext(req));
    res.status(204).end();
  };

  return { create, list, get, update, remove, rotateSecret, connectedApps, disconnectApp };
}
