import type { RequestHandler, Response } from 'express';

/** Marks a response that carries or sets a credential as never to be stored by any cache (CONTRACT 2). */
export function noStore(res: Response): void {
  res.setHeader('Cache-Control', 'no-store');
}

/** Every answer of a router is never stored: it may carry or set a credential, or personal data. */
export const noStoreAll: RequestHandler = (_req, res, next) => {
  noStore(res);
  next();
};
