import type { RequestHandler } from 'express';

/**
 * Every answer of the authenticated API is one workspace's data (or an error about a
 * credential): `Cache-Control: no-store`, so no browser, proxy or client library keeps
 * a copy (Stripe answers the same). Set before authentication, so a 401 carries it too.
 */
export const noStore: RequestHandler = (_req, res, next) => {
  res.set('Cache-Control', 'no-store');
  next();
};
