import type { NextFunction, Request, Response } from 'express';
import { ForbiddenError } from '../../shared/errors.js';
import { sessionOf } from './console-session.js';

/**
 * API tokens, webhooks and members are for administrators: anyone else gets a 403 for the page
 * and for a POST to it (the workers refuse the calls too; this says so in words first).
 */
export function requireConfiguration(req: Request, _res: Response, next: NextFunction): void {
  if (!sessionOf(req).isAdministrator) {
    throw new ForbiddenError('This page is for workspace administrators: it needs the Configuration permission.');
  }
  next();
}
