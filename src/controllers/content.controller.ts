import type { Request, RequestHandler } from 'express';
import type { Container } from '../container';
import type { ContentActor } from '../access/content-policy';
import type { ContentInput, ContentListQuery } from '../services/content/content.service';

/** The signed-in caller as the content policy sees them (the route's guard has set req.user). */
function actor(req: Request): ContentActor {
  const user = req.user as Express.User;
  return { id: user.id, role: user.role, keyPermissions: req.apiKey?.permissions };
}

/** Handlers of the CONTRACT 4 content API; which item a caller may touch is decided in the service. */
export function createContentController({ content }: Container) {
  const list: RequestHandler = async (req, res) => {
    res.json(await content.list(actor(req), req.query as unknown as ContentListQuery));
  };

  const create: RequestHandler = async (req, res) => {
    res.status(201).json({ content: await content.create(actor(req), req.body as ContentInput) });
  };

  const get: RequestHandler = async (req, res) => {
    res.json({ content: await content.get(actor(req), req.params.id as string) });
  };

  const update: RequestHandler = async (req, res) => {
    res.json({ content: await content.update(actor(req), req.params.id as string, req.body as Partial<ContentInput>) });
  };

  const remove: RequestHandler = async (req, res) => {
    await content.remove(actor(req), req.params.id as string);
    res.status(204).end();
  };

  return { list, create, get, update, remove };
}
