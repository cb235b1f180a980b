import type { RequestHandler } from 'express';
import type { Container } from '../container';
import type { ActivityFilter } from '../services/operations/activity.service';

/** Handler of the CONTRACT 4 activity log; the route schema has parsed paging and filters. */
export function createActivityController({ activity }: Container) {
  const list: RequestHandler = async (req, res) => {
    res.json(await activity.list(req.query as unknown as ActivityFilter));
  };

  return { list };
}
