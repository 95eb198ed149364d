import type { RequestHandler } from 'express';
import { newId } from '../../shared/ids.js';

/** Every response carries a Request-Id; the same id travels to the worker and into both logs. */
export const requestId: RequestHandler = (req, res, next) => {
  req.requestId = newId('request');
  res.set('Request-Id', req.requestId);
  next();
};
