import type { RequestHandler } from 'express';
import type { Container } from '../container';
import type { CollectionInput } from '../services/content/collection.service';

/** Handlers of the CONTRACT 4 collections API; the route schemas have parsed the input. */
export function createCollectionsController({ collections }: Container) {
  const list: RequestHandler = async (_req, res) => {
    res.json({ collections: await collections.list() });
  };

  const create: RequestHandler = async (req, res) => {
    res.status(201).json({ collection: await collections.create(req.body as CollectionInput) });
  };

  const update: RequestHandler = async (req, res) => {
    res.json({ collection: await collections.update(req.params.id as string, req.body as Partial<CollectionInput>) });
  };

  const remove: RequestHandler = async (req, res) => {
    await collections.remove(req.params.id as string);
    res.status(204).end();
  };

  return { list, create, update, remove };
}
