import type { RequestHandler } from 'express';
import { grantsScope, type Scope } from '../../shared/auth/scopes.js';
import { MissingScopeError, UnauthenticatedError } from '../../shared/errors.js';

/** 403 naming exactly the missing scope (the worker checks again). */
export function requireScope(scope: Scope): RequestHandler {
  return (req, _res, next) => {
    if (!req.credential) return next(new UnauthenticatedError());
    if (!grantsScope(req.credential.scopes, scope)) return next(new MissingScopeError(scope));
    next();
  };
}
