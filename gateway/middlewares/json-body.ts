import express, { type RequestHandler } from 'express';
import { UnsupportedMediaTypeError } from '../../shared/errors.js';

/** Parses JSON bodies up to `limit`; anything else on a write is a 415. */
export function jsonBody(limit: string): RequestHandler[] {
  const parse = express.json({ limit, strict: true, type: ['application/json', 'application/*+json'] });
  const requireJson: RequestHandler = (req, _res, next) => {
    if (req.method === 'POST' || req.method === 'PATCH' || req.method === 'PUT') {
      if (!req.is(['application/json', 'application/*+json'])) {
        next(new UnsupportedMediaTypeError('Send the request body as JSON with Content-Type: application/json.'));
        return;
      }
    }
    next();
  };
  return [requireJson, parse];
}
