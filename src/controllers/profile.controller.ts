import type { RequestHandler } from 'express';
import type { Container } from '../container';
import { adminAudit } from '../http/request-context';
import type { ProfileUpdate } from '../schemas/profile.schemas';

/** Handlers of the SPEC 4.5 profile API; who may read or change a profile is the route's guard. */
export function createProfileController({ profiles }: Container) {
  const schema: RequestHandler = (_req, res) => {
    res.json(profiles.schema());
  };

  const get: RequestHandler = async (req, res) => {
    res.json(await profiles.get(req.params.userId as string));
  };

  const update: RequestHandler = async (req, res) => {
    res.json(await profiles.update(req.params.userId as string, req.body as ProfileUpdate, adminAudit(req)));
  };

  return { schema, get, update };
}
