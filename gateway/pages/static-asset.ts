import type { RequestHandler } from 'express';

/** A stylesheet or script built into the code; cached for an hour, since it changes only with a deploy. */
export function staticAsset(type: string, body: string): RequestHandler {
  return (_req, res) => {
    res.type(type).set('Cache-Control', 'public, max-age=3600').send(body);
  };
}
